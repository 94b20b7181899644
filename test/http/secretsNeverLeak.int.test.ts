/**
 * Secrets never leak, against one built server (`npm run build` first) whose whole output is
 * captured. The test plays an operator's and a client's day, mistakes and attacks included:
 * operators are created and their passwords changed, logins fail and succeed, the session cookie
 * carries admin calls (and a forged one, and a cross-origin one), API keys are created, used,
 * refused, revoked and presented where they do not belong, bodies are malformed, ids unknown, a
 * name the database cannot store is sent (a 500 today), query parameters are Redis-key nonsense.
 *
 * Then every secret (the API keys and their secret parts, the admin token, every password tried,
 * the session token, and the hashes stored for keys, sessions and passwords) must be absent from
 * the server's stdout and stderr, and from every answer it gave (status, headers and body): admin
 * reads (key, key list, upstream, audit before/after, operators, quota, decisions, monitoring),
 * problem bodies, /api/metrics and /api/health. Three answers are allowed one secret each, as the
 * contract says: the key creation 201 carries its key, the login's Set-Cookie its session token,
 * and the PUT that turned on an upstream's request signing its signing secret. The server,
 * the recording of answers and the registry of secrets: test/support/leakWatch.ts.
 */
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { uniqueName, type CreatedKey } from "@/test/support/adminClient";
import { leakWatch, random } from "@/test/support/leakWatch";
import { waitUntil } from "@/test/support/sluiceEnv";

const HOUR_MS = 3_600_000;
const watch = leakWatch("http-secrets");
const { setup, secrets, secret, answers, createdTenants, createdOperatorEmails, send, expectStatus, logIn } = watch;

const RULES: RuleInput[] = [
  { name: "per-key", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS, match: { path: "/api/v1/echo" } },
];

describe("secrets", () => {
  it("appear only where the contract shows them: never in logs, later answers or problem bodies", async () => {
    const [server, admin] = [watch.server(), watch.admin()];
    // --- Operators and passwords -------------------------------------------------------------
    const email = `${uniqueName("secrets")}@sluice.test`;
    createdOperatorEmails.push(email);
    const password = secret("operator password", random("operator-password"));
    const operator = (
      await expectStatus(201, "POST", "/api/admin/operators", {
        bearer: setup.adminToken,
        body: { email, password, role: "admin" },
      })
    ).json() as { id: string };
    await expectStatus(422, "POST", "/api/admin/operators", {
      bearer: setup.adminToken,
      body: {
        email: "not an email",
        password: secret("password of a refused operator", random("refused-password")),
        role: "admin",
      },
    });
    await expectStatus(422, "POST", "/api/admin/operators", {
      bearer: setup.adminToken,
      body: {
        email: `x${email}`,
        password: secret("password with an unknown role", random("bad-role-password")),
        role: "root",
      },
    });

    // --- Logins: wrong, malformed, right -------------------------------------------------------
    await expectStatus(401, "POST", "/api/auth/login", {
      body: { email, password: secret("wrong password", random("wrong-password")) },
    });
    await expectStatus(401, "POST", "/api/auth/login", {
      body: {
        email: `nobody-${email}`,
        password: secret("password of an unknown email", random("unknown-email-password")),
      },
    });
    await expectStatus(400, "POST", "/api/auth/login", {
      body: `{"email":"${email}","password":"${secret("password in malformed JSON", random("malformed-password"))}"`,
    });
    await expectStatus(422, "POST", "/api/auth/login", {
      body: {
        email,
        password: secret("password beside an unknown field", random("extra-field-password")),
        remember: true,
      },
    });
    await expectStatus(403, "POST", "/api/auth/login", {
      headers: { origin: "https://evil.example" },
      body: { email, password },
    });

    const firstToken = await logIn(email, password, "session token");

    // --- The cookie at work, forged and cross-origin ------------------------------------------
    await expectStatus(200, "GET", "/api/auth/me", { cookie: firstToken });
    await expectStatus(200, "GET", "/api/admin/tenants", { cookie: firstToken });
    const tenant = (
      await expectStatus(201, "POST", "/api/admin/tenants", {
        cookie: firstToken,
        sameOrigin: true,
        body: { name: uniqueName("secrets") },
      })
    ).json() as { id: string };
    createdTenants.push(tenant.id);
    await expectStatus(403, "POST", "/api/admin/tenants", {
      cookie: firstToken,
      headers: { origin: "https://evil.example" },
      body: { name: uniqueName("csrf") },
    });
    await expectStatus(401, "GET", "/api/admin/tenants", {
      cookie: secret("forged session token", random("forged").replace(/-/g, "")),
    });
    // A password change ends the operator's sessions; the new password logs in.
    const changedPassword = secret("changed password", random("changed-password"));
    await expectStatus(200, "PATCH", `/api/admin/operators/${operator.id}`, {
      cookie: firstToken,
      sameOrigin: true,
      body: { password: changedPassword },
    });
    await expectStatus(401, "GET", "/api/auth/me", { cookie: firstToken });
    await expectStatus(401, "POST", "/api/auth/login", { body: { email, password } });
    const token = await logIn(email, changedPassword, "session token after the password change");
    await expectStatus(422, "PATCH", `/api/admin/operators/${operator.id}`, {
      bearer: setup.adminToken,
      body: { password: "too short", role: "admin" },
    });

    // --- API keys: created (the one answer that shows one), used, refused, revoked -------------
    const created = await send("POST", `/api/admin/tenants/${tenant.id}/keys`, {
      cookie: token,
      sameOrigin: true,
      body: { name: "secrets key" },
      record: false,
    });
    expect(created.status, created.text).toBe(201);
    const key = created.json() as CreatedKey;
    expect(created.text).toContain(key.key);
    secret("API key", key.key);
    secret("API key secret part", key.key.slice(key.prefix.length + 1));
    const doomed = await admin.createKey(tenant.id, "revoked key");
    secret("revoked API key", doomed.key);
    await admin.revokeKey(doomed.id);
    await admin.putTenantRules(tenant.id, RULES);

    // Until the limit refuses (a rule change is in force within 1 s), so a 429 body is checked too.
    await waitUntil(
      async () => (await expectStatus([200, 429], "GET", "/api/v1/echo", { bearer: key.key })).status === 429,
      10_000,
      "a 429 for the key",
    );
    await expectStatus(429, "GET", "/api/v1/echo", { headers: { "x-api-key": key.key } });
    await expectStatus(200, "POST", "/api/v1/echo/deeper", { bearer: key.key, body: { note: "a body" } });
    await expectStatus(401, "GET", "/api/v1/echo", { bearer: doomed.key });
    await expectStatus(401, "GET", "/api/v1/echo", {
      bearer: secret("wrong secret of a real key id", `${key.prefix}_${"Z".repeat(22)}`),
    });
    await expectStatus(401, "GET", "/api/v1/echo", {
      headers: { authorization: secret("not a bearer credential", random("Basic dXNlcjpwYXNz")) },
    });
    await expectStatus(401, "GET", "/api/v1/echo", { bearer: setup.adminToken });
    await expectStatus(401, "GET", "/api/v1/echo", { bearer: token });
    await expectStatus(401, "GET", "/api/v1/echo", { cookie: token });
    await expectStatus([404, 422], "POST", "/api/v1/check", {
      bearer: key.key,
      body: { identifier: key.key, rule: "per-key" },
    });

    // --- The upstream's signing secret: in the answer of the PUT that made it, nowhere else --------
    const upstreamPath = `/api/admin/tenants/${tenant.id}/upstream`;
    // Port 9 (discard): nothing listens, so the forwarded request below is a 502.
    const signed = await send("PUT", upstreamPath, {
      bearer: setup.adminToken,
      body: { url: "http://127.0.0.1:9", signRequests: true },
      record: false,
    });
    expect(signed.status, signed.text).toBe(200);
    const upstreamSecret = secret("upstream signing secret", (signed.json() as { secret: string }).secret);
    await expectStatus(200, "PUT", upstreamPath, {
      cookie: token,
      sameOrigin: true,
      body: { url: "http://127.0.0.1:9", timeoutMs: 1_000, signRequests: true },
    });
    await expectStatus(422, "PUT", upstreamPath, {
      bearer: setup.adminToken,
      body: { url: "http://127.0.0.1:9", signRequests: true, signingSecret: upstreamSecret },
    });
    await expectStatus(502, "GET", "/api/v1/orders/1", { bearer: key.key });

    // --- Credentials where they do not belong --------------------------------------------------
    await expectStatus(401, "GET", "/api/admin/tenants", { bearer: key.key });
    await expectStatus(401, "GET", "/api/admin/tenants", { bearer: token });
    await expectStatus(401, "GET", "/api/admin/tenants", {
      bearer: secret("wrong admin token", random("wrong-admin-token")),
    });
    await expectStatus(401, "GET", "/api/admin/tenants", { headers: { authorization: setup.adminToken } });

    // --- Errors: malformed bodies, unknown ids, nonsense parameters -----------------------------
    await expectStatus(400, "POST", "/api/admin/tenants", { bearer: setup.adminToken, body: `{"name":"${key.key}"` });
    await expectStatus(400, "PUT", `/api/admin/tenants/${tenant.id}/rules`, {
      bearer: setup.adminToken,
      body: `[{"name":"${setup.adminToken}",`,
    });
    await expectStatus(422, "PUT", `/api/admin/tenants/${tenant.id}/rules`, {
      bearer: setup.adminToken,
      body: [{ ...RULES[0], limit: key.key }],
    });
    await expectStatus(422, "POST", `/api/admin/tenants/${tenant.id}/keys`, {
      bearer: setup.adminToken,
      body: { name: key.key.repeat(10) },
    });
    await expectStatus(404, "GET", `/api/admin/keys/${encodeURIComponent(key.key)}`, { bearer: setup.adminToken });
    await expectStatus(404, "GET", `/api/admin/tenants/${encodeURIComponent(key.key)}/keys`, {
      bearer: setup.adminToken,
    });
    await expectStatus(404, "GET", "/api/admin/keys/ZZZZZZZZ", { bearer: setup.adminToken });
    await expectStatus(404, "POST", `/api/admin/audit/${encodeURIComponent(key.key)}/revert`, {
      bearer: setup.adminToken,
    });
    await expectStatus(404, "DELETE", `/api/admin/operators/${encodeURIComponent(password)}`, {
      bearer: setup.adminToken,
    });
    // Redis-key nonsense where monitoring builds keys from parameters: refused before Redis.
    for (const tenantId of ["{x}*", `${tenant.id}}:*`, key.key, "\u0000"]) {
      await expectStatus(
        422,
        "GET",
        `/api/admin/monitoring/hot-keys?range=5m&tenantId=${encodeURIComponent(tenantId)}`,
        { bearer: setup.adminToken },
      );
    }
    await expectStatus(422, "GET", `/api/admin/monitoring/traffic?range=${encodeURIComponent(key.key)}`, {
      bearer: setup.adminToken,
    });
    // A name Postgres cannot store (NUL), made of secrets: refused before the database, as a 422 that
    // names the field (the whole output is checked for the secrets below).
    const unstorable = await expectStatus(422, "POST", "/api/admin/tenants", {
      bearer: setup.adminToken,
      body: { name: `${key.key}\u0000${setup.adminToken}` },
    });
    expect(Object.keys((unstorable.json() as { errors: object }).errors)).toEqual(["name"]);

    // --- The stored hashes are secrets too -----------------------------------------------------
    await watch.storedHashesAreSecrets(tenant.id, operator.id);

    // --- Everything an operator reads later -------------------------------------------------
    const reads = [
      `/api/admin/keys/${key.id}`,
      `/api/admin/keys/${doomed.id}`,
      `/api/admin/tenants/${tenant.id}/keys`,
      `/api/admin/tenants/${tenant.id}`,
      `/api/admin/tenants/${tenant.id}/rules`,
      `/api/admin/tenants/${tenant.id}/upstream`,
      `/api/admin/tenants/${tenant.id}/policy`,
      `/api/admin/tenants/${tenant.id}/quota`,
      `/api/admin/keys/${key.id}/quota`,
      `/api/admin/keys/${key.id}/decisions`,
      `/api/admin/keys/${key.id}/rules`,
      `/api/admin/audit?tenantId=${tenant.id}`,
      "/api/admin/audit?limit=100",
      "/api/admin/operators",
      `/api/admin/operators/${operator.id}`,
      "/api/admin/monitoring/traffic?range=5m",
      `/api/admin/monitoring/traffic?range=5m&tenantId=${tenant.id}`,
      "/api/admin/monitoring/hot-keys?range=5m",
      "/api/admin/monitoring/near-limit",
      `/api/admin/monitoring/refusal-rate?range=5m&tenantId=${tenant.id}`,
    ];
    for (const path of reads) await expectStatus(200, "GET", path, { cookie: token });
    const audit = (
      await expectStatus(200, "GET", `/api/admin/audit?tenantId=${tenant.id}`, { bearer: setup.adminToken })
    ).json() as { action: string }[];
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(["tenant.create", "key.create", "key.revoke", "rules.replace"]),
    );
    const operatorAudit = (
      await expectStatus(200, "GET", "/api/admin/audit?limit=100", { bearer: setup.adminToken })
    ).json() as { target: string }[];
    expect(operatorAudit.filter((e) => e.target === `operator:${operator.id}`).length).toBeGreaterThanOrEqual(2);
    await expectStatus([200, 503], "GET", "/api/health");
    await expectStatus(200, "GET", "/api/metrics");

    // --- Logout, and the cookie is dead ----------------------------------------------------------
    await expectStatus(204, "POST", "/api/auth/logout", { cookie: token, sameOrigin: true });
    await expectStatus(401, "GET", "/api/auth/me", { cookie: token });
    await expectStatus(401, "GET", "/api/admin/tenants", { cookie: token });

    // --- The verdict -------------------------------------------------------------------------
    const log = server.log();
    expect(log).toContain("listening");
    const sources = [{ what: "server stdout/stderr", text: log }, ...answers];
    const leaks: string[] = [];
    for (const [label, value] of secrets) {
      expect(value.length, label).toBeGreaterThanOrEqual(16);
      for (const source of sources) if (source.text.includes(value)) leaks.push(`${label} in ${source.what}`);
    }
    expect(leaks).toEqual([]);
    expect(answers.length).toBeGreaterThan(60);
  });
});
