/**
 * GET/PUT /api/admin/tenants/{tenantId}/policy through the route handlers (no server), against the
 * test database: the export never holds a secret; exporting and applying the export changes nothing
 * and writes no audit event; an apply writes each changed part's own audit event by the actor;
 * `?dryRun=1` answers the same and changes nothing; a stale If-Match is a 412; invalid documents
 * and unknown key names are 422s with paths; a refusal of a later part leaves the earlier ones as
 * they were (one transaction); a tenant-limited token gets 403 on another tenant. Cleans up its
 * tenants and tokens.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { adminCaller, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const { auth, close } = routeTestEnv("policy");
const { tenants, tenantKeys, tenantPolicy, audit, tokens } = await loadRoutes(
  "tenants",
  "tenantKeys",
  "tenantPolicy",
  "audit",
  "tokens",
);
const { getDb } = await import("@/lib/db/client");
const call = adminCaller(auth);
const created: string[] = [];
const createdTokens: string[] = [];

afterAll(async () => {
  await getDb().adminToken.deleteMany({ where: { id: { in: createdTokens } } });
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

const suffix = () => randomBytes(4).toString("hex");
const MINUTE = 60_000;

async function newTenant(): Promise<string> {
  const res = await call(tenants, "POST", "/tenants", {}, { name: `policy-${suffix()}` });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  return res.body.id as string;
}

async function newKey(tenantId: string, name: string): Promise<{ id: string; key: string }> {
  const res = await call(tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name });
  expect(res.status).toBe(201);
  return res.body;
}

const get = (tenantId: string, headers = auth) =>
  call(tenantPolicy, "GET", `/tenants/${tenantId}/policy`, { tenantId }, undefined, headers);
const put = (tenantId: string, body: unknown, query = "", headers: Record<string, string> = {}) =>
  call(tenantPolicy, "PUT", `/tenants/${tenantId}/policy${query}`, { tenantId }, body, { ...auth, ...headers });
const auditOf = async (tenantId: string): Promise<{ action: string; actor: string; target: string }[]> =>
  (await call(audit, "GET", `/audit?tenantId=${tenantId}`, {})).body;

const WEBHOOK = "https://hooks.example.com/sluice/very-secret-capability-token";

/** A document setting every part of a tenant with a key named `alice`. */
function fullDocument(host: string) {
  return {
    rules: [
      { name: "per-key", scope: "key", algorithm: "fixed_window", limit: 100, windowMs: MINUTE },
      { name: "per-user", scope: "identifier", algorithm: "fixed_window", limit: 10, windowMs: MINUTE },
    ],
    keys: { alice: { tier: "pro", rules: [{ name: "alice-cap", scope: "key", limit: 5, windowMs: MINUTE }] } },
    tiers: { pro: [{ name: "per-key", scope: "key", algorithm: "fixed_window", limit: 1000, windowMs: MINUTE }] },
    overrides: { "per-user": [{ identifier: "acme", limit: 50 }] },
    access: { allow: ["10.0.0.0/8"], deny: ["192.0.2.1"] },
    identity: { hosts: [host], apiKeys: true, anonymous: true },
    upstream: { url: "https://api.example.com/base/", timeoutMs: 5000, signRequests: true },
    alerts: { webhookUrl: WEBHOOK, refusalRate: { thresholdPct: 20, minutes: 5 } },
  };
}

describe("export and apply", () => {
  it("applies a whole document, audits each part by the actor, and exports it back without a secret", async () => {
    const tenantId = await newTenant();
    const alice = await newKey(tenantId, "alice");
    const host = `p-${suffix()}.example.com`;
    const res = await put(tenantId, fullDocument(host));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      changed: [
        "rules",
        "tiers.pro",
        "keys.alice.tier",
        "keys.alice.rules",
        "overrides.per-user",
        "access",
        "identity",
        "upstream",
        "alerts",
      ],
      dryRun: false,
    });
    const events = await auditOf(tenantId);
    expect(
      events.filter((e) => !["key.create", "tenant.create"].includes(e.action)).map((e) => [e.action, e.actor]),
    ).toEqual(
      [
        ["rules.replace", "token"],
        ["rules.replace", "token"],
        ["key.tier", "token"],
        ["rules.replace", "token"],
        ["overrides.replace", "token"],
        ["access.replace", "token"],
        ["identity.replace", "token"],
        ["upstream.replace", "token"],
        ["alerts.replace", "token"],
      ].reverse(),
    );

    const exported = await get(tenantId);
    expect(exported.status).toBe(200);
    expect(exported.headers.get("etag")).toBe(res.headers.get("etag"));
    expect(exported.body).toMatchObject({
      keys: { alice: { tier: "pro", rules: [{ name: "alice-cap", limit: 5 }] } },
      tiers: { pro: [{ name: "per-key", limit: 1000 }] },
      overrides: { "per-user": [{ identifier: "acme", limit: 50 }] },
      access: { allow: ["10.0.0.0/8"], deny: ["192.0.2.1"] },
      identity: { hosts: [host], apiKeys: true, jwt: null, anonymous: true },
      upstream: { url: "https://api.example.com/base", timeoutMs: 5000, signRequests: true },
      alerts: { refusalRate: { thresholdPct: 20, minutes: 5, minRequests: 20 }, clientLimit: null },
    });
    // Never a secret: not the key, its hash, the upstream's or the webhook's signing secret, the webhook URL.
    const text = JSON.stringify(exported.body);
    const db = getDb();
    const key = await db.apiKey.findUniqueOrThrow({ where: { id: alice.id } });
    const upstream = await db.upstream.findUniqueOrThrow({ where: { tenantId } });
    const alerts = await db.alertSettings.findUniqueOrThrow({ where: { tenantId } });
    for (const secret of [alice.key, key.secretHash, upstream.signingSecret!, alerts.secret, WEBHOOK])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/secret/i);
  });

  it("applying the export changes nothing and writes no audit event, also a second time", async () => {
    const tenantId = await newTenant();
    await newKey(tenantId, "alice");
    expect((await put(tenantId, fullDocument(`p-${suffix()}.example.com`))).status).toBe(200);
    const exported = await get(tenantId);
    const before = await auditOf(tenantId);
    for (let i = 0; i < 2; i++) {
      const res = await put(tenantId, exported.body, "", { "if-match": exported.headers.get("etag")! });
      expect(res.status).toBe(200);
      expect(res.body.changed).toEqual([]);
      expect(res.headers.get("etag")).toBe(exported.headers.get("etag"));
    }
    expect(await auditOf(tenantId)).toEqual(before);
    expect((await get(tenantId)).headers.get("etag")).toBe(exported.headers.get("etag"));
  });

  it("a tier the document leaves out loses its rules; a key it leaves out keeps its policy", async () => {
    const tenantId = await newTenant();
    await newKey(tenantId, "alice");
    expect((await put(tenantId, fullDocument(`p-${suffix()}.example.com`))).status).toBe(200);
    const doc = (await get(tenantId)).body;
    const res = await put(tenantId, { ...doc, tiers: {}, keys: {} });
    expect(res.body.changed).toEqual(["tiers.pro"]);
    expect((await auditOf(tenantId))[0]!.action).toBe("tier.delete");
    expect((await get(tenantId)).body.keys.alice.tier).toBe("pro");
  });
});

describe("?dryRun=1", () => {
  it("answers what would change and changes nothing", async () => {
    const tenantId = await newTenant();
    await newKey(tenantId, "alice");
    const before = await get(tenantId);
    const events = await auditOf(tenantId);
    const res = await put(tenantId, fullDocument(`p-${suffix()}.example.com`), "?dryRun=1");
    expect(res.status).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.changed).toContain("rules");
    expect(res.body.changed).toContain("alerts");
    const after = await get(tenantId);
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect(after.body).toEqual(before.body);
    expect(await auditOf(tenantId)).toEqual(events);
    expect(await getDb().upstream.findUnique({ where: { tenantId } })).toBeNull();
  });
});

describe("412", () => {
  it("refuses an If-Match naming an ETag that is no longer current, and changes nothing", async () => {
    const tenantId = await newTenant();
    const exported = await get(tenantId);
    const etag = exported.headers.get("etag")!;
    const changed = { ...exported.body, access: { allow: ["10.0.0.1"], deny: [] } };
    expect((await put(tenantId, changed, "", { "if-match": etag })).status).toBe(200);
    const stale = await put(tenantId, { ...exported.body, rules: [] }, "", { "if-match": etag });
    expect(stale.status).toBe(412);
    expect(stale.body.detail).toMatch(/changed since/);
    expect((await get(tenantId)).body.access.allow).toEqual(["10.0.0.1"]);
  });
});

describe("422", () => {
  it("names every invalid field by its path", async () => {
    const tenantId = await newTenant();
    const doc = (await get(tenantId)).body;
    const res = await put(tenantId, {
      ...doc,
      rules: [{ name: "x", scope: "key", limit: -1, windowMs: MINUTE }],
      access: { allow: ["not-an-ip"], deny: [] },
      upstream: { url: "ftp://example.com" },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(["rules.0.limit", "access.allow.0", "upstream.url"]),
    );
  });

  it("refuses a body that is not a document (a list, a part missing)", async () => {
    const tenantId = await newTenant();
    expect((await put(tenantId, [])).status).toBe(422);
    const { alerts, ...partial } = (await get(tenantId)).body;
    expect(alerts).toBeNull();
    const res = await put(tenantId, partial);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["alerts"]);
  });

  it("refuses a key name that matches no live key (keys are created, not declared), and overrides of a non-identifier rule", async () => {
    const tenantId = await newTenant();
    const doc = (await get(tenantId)).body;
    const res = await put(tenantId, {
      ...doc,
      rules: [{ name: "per-key", scope: "key", limit: 1, windowMs: MINUTE }],
      keys: { bob: { tier: "pro" } },
      overrides: { "per-key": [{ identifier: "acme", limit: 5 }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors["keys.bob"][0]).toMatch(/not declared/);
    expect(res.body.errors["overrides.per-key"][0]).toMatch(/identifier/);
    expect((await get(tenantId)).body.rules).toEqual([]);
  });

  it("alerts set for the first time need the webhook URL (an export never shows it)", async () => {
    const tenantId = await newTenant();
    const doc = (await get(tenantId)).body;
    const res = await put(tenantId, { ...doc, alerts: { clientLimit: { hits: 3, windowMinutes: 5 } } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["alerts.webhookUrl"]);
  });
});

describe("one transaction", () => {
  it("a part refused after others were written leaves every part as it was", async () => {
    const holder = await newTenant();
    const host = `taken-${suffix()}.example.com`;
    const holderDoc = (await get(holder)).body;
    expect((await put(holder, { ...holderDoc, identity: { hosts: [host] } })).status).toBe(200);

    const tenantId = await newTenant();
    const before = await get(tenantId);
    const events = await auditOf(tenantId);
    const res = await put(tenantId, {
      ...before.body,
      rules: [{ name: "per-key", scope: "key", limit: 1, windowMs: MINUTE }],
      access: { allow: ["10.0.0.1"], deny: [] },
      identity: { hosts: [host] },
    });
    expect(res.status).toBe(409);
    expect((await get(tenantId)).body).toEqual(before.body);
    expect(await auditOf(tenantId)).toEqual(events);
  });
});

describe("403", () => {
  it("a tenant-limited token applies its own tenant's policy (audited by its name) and gets 403 on another's", async () => {
    const mine = await newTenant();
    const other = await newTenant();
    const name = `policy-ci-${suffix()}`;
    const token = await call(tokens, "POST", "/tokens", {}, { name, role: "admin", tenantId: mine });
    expect(token.status).toBe(201);
    createdTokens.push(token.body.id);
    const as = { authorization: `Bearer ${token.body.token}` };

    const doc = (await get(mine, as)).body;
    const res = await call(
      tenantPolicy,
      "PUT",
      `/tenants/${mine}/policy`,
      { tenantId: mine },
      { ...doc, access: { allow: ["10.0.0.2"], deny: [] } },
      as,
    );
    expect(res.status).toBe(200);
    expect((await auditOf(mine))[0]).toMatchObject({ action: "access.replace", actor: `token:${name}` });

    expect((await get(other, as)).status).toBe(403);
    const refused = await call(tenantPolicy, "PUT", `/tenants/${other}/policy`, { tenantId: other }, doc, as);
    expect(refused.status).toBe(403);
  });
});
