/**
 * Key policies on two built servers on one Redis and one Postgres (../shared/CONTRACT.md):
 * - expiry: a key stops working (401) on every instance within 1 s of its `expiresAt`, whether
 *   the instant comes by itself or is set through the other instance; bad input is a 422 naming
 *   `expiresAt`; the change is audited and revertible.
 * - reset: DELETE .../keys/{keyId}/counters (and one identifier's counters of an identifier rule)
 *   made through A gives full quota again on B within 1 s, though B holds a cached refusal.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall, uniqueName, type AdminClient, type CreatedKey } from "@/test/support/adminClient";
import { msUntil, sleep, waitUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { echo, PROBE_RULE, twoServersForSuite } from "@/test/support/twoServers";

const HOUR_MS = 3_600_000;
const PROPAGATION_LIMIT_MS = 1_000;
const GIVE_UP_MS = 10 * PROPAGATION_LIMIT_MS;

// A generous Redis deadline: under a loaded machine the default 100 ms fails rules open (an
// allowed request that consumed nothing), which these tests would misread as a reset.
const servers = twoServersForSuite("http-policies", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
let a: SluiceServer;
let b: SluiceServer;
let adminA: AdminClient;
let adminB: AdminClient;

beforeAll(() => {
  ({ a, b, adminA, adminB } = servers);
});

async function tenantWithRules(rules: RuleInput[]): Promise<string> {
  const tenant = await adminA.createTenant();
  servers.track(tenant.id);
  await adminA.putTenantRules(tenant.id, [...rules, PROBE_RULE]);
  return tenant.id;
}

/** Waits (set-up, not an assertion) until B knows `key`. */
async function servedByB(key: CreatedKey): Promise<void> {
  await waitUntil(
    async () =>
      (await apiCall(b.url, "/api/v1/probe", { key: key.key })).headers.get("ratelimit-policy") ===
      `"probe";q=1000000;w=3600`,
    10_000,
    "B serves the key",
  );
}

async function keyWithExpiry(tenantId: string, expiresAt: string | null): Promise<CreatedKey> {
  const got = await adminA.request("POST", `/api/admin/tenants/${tenantId}/keys`, { name: uniqueName("k"), expiresAt });
  expect(got.status).toBe(201);
  return got.body as CreatedKey;
}

describe("key expiry", () => {
  it("a key created to expire shortly works on both instances until then, and is 401 on both within 1 s of its instant", async () => {
    const tenantId = await tenantWithRules([]);
    const expiresAtMs = Date.now() + 4_000;
    const key = await keyWithExpiry(tenantId, new Date(expiresAtMs).toISOString());
    expect((key as unknown as { expiresAt: string }).expiresAt).toBe(new Date(expiresAtMs).toISOString());
    await servedByB(key);
    expect((await echo(a, key)).status).toBe(200);
    expect((await echo(b, key)).status).toBe(200);
    expect(Date.now()).toBeLessThan(expiresAtMs); // still before the instant: the 200s above count

    await sleep(Math.max(0, expiresAtMs - Date.now()));
    const at = performance.now();
    const elapsed = await msUntil(
      at,
      async () => (await echo(a, key)).status === 401 && (await echo(b, key)).status === 401,
      GIVE_UP_MS,
    );
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
    const refused = await echo(b, key);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect((refused.body as { detail: string }).detail).toMatch(/expired/);
  });

  it("an expiry set in the past through A is 401 on B within 1 s; clearing it through B restores the key on A", async () => {
    const tenantId = await tenantWithRules([]);
    const key = await keyWithExpiry(tenantId, null);
    await servedByB(key);
    expect((await echo(b, key)).status).toBe(200);

    const set = await adminA.request("PATCH", `/api/admin/keys/${key.id}`, {
      expiresAt: new Date(Date.now() - 1_000).toISOString(),
    });
    expect(set.status).toBe(200);
    const setAt = performance.now();
    expect(await msUntil(setAt, async () => (await echo(b, key)).status === 401, GIVE_UP_MS)).toBeLessThan(
      PROPAGATION_LIMIT_MS,
    );

    const cleared = await adminB.request("PATCH", `/api/admin/keys/${key.id}`, { expiresAt: null });
    expect(cleared.status).toBe(200);
    expect((cleared.body as { expiresAt: unknown }).expiresAt).toBeNull();
    const clearedAt = performance.now();
    expect(await msUntil(clearedAt, async () => (await echo(a, key)).status === 200, GIVE_UP_MS)).toBeLessThan(
      PROPAGATION_LIMIT_MS,
    );
  });

  it("is audited as key.expiry with before and after, and a revert sets the earlier expiry again", async () => {
    const tenantId = await tenantWithRules([]);
    const key = await keyWithExpiry(tenantId, null);
    const later = new Date(Date.now() + HOUR_MS).toISOString();
    expect((await adminA.request("PATCH", `/api/admin/keys/${key.id}`, { expiresAt: later })).status).toBe(200);
    const audit = await adminA.request("GET", `/api/admin/audit?tenantId=${tenantId}&limit=5`);
    const event = (
      audit.body as {
        id: string;
        action: string;
        target: string;
        before: { expiresAt: unknown };
        after: { expiresAt: unknown };
      }[]
    )[0]!;
    expect(event).toMatchObject({
      action: "key.expiry",
      target: `key:${key.id}`,
      before: { expiresAt: null },
      after: { expiresAt: later },
    });

    const revert = await adminB.request("POST", `/api/admin/audit/${event.id}/revert`);
    expect(revert.status).toBe(200);
    const after = await adminA.request("GET", `/api/admin/keys/${key.id}`);
    expect((after.body as { expiresAt: unknown }).expiresAt).toBeNull();
  });

  it.each([
    [
      "creation with an instant in the past",
      "POST",
      (tenantId: string) => `/api/admin/tenants/${tenantId}/keys`,
      { name: "k", expiresAt: "2020-01-01T00:00:00Z" },
      "expiresAt must be in the future",
    ],
    [
      "creation with a date without a zone",
      "POST",
      (tenantId: string) => `/api/admin/tenants/${tenantId}/keys`,
      { name: "k", expiresAt: "2030-01-01T00:00:00" },
      "expiresAt must be an ISO 8601 date-time",
    ],
    [
      "an edit with text",
      "PATCH",
      (_t: string, keyId: string) => `/api/admin/keys/${keyId}`,
      { expiresAt: "tomorrow" },
      "expiresAt must be an ISO 8601 date-time",
    ],
  ])("422 naming expiresAt: %s", async (_what, method, path, body, message) => {
    const tenantId = await tenantWithRules([]);
    const key = await keyWithExpiry(tenantId, null);
    const got = await adminA.request(method, path(tenantId, key.id), body);
    expect(got.status).toBe(422);
    expect((got.body as { errors: Record<string, string[]> }).errors.expiresAt![0]).toContain(message);
  });

  it("a revoked key's expiry cannot be changed (409)", async () => {
    const tenantId = await tenantWithRules([]);
    const key = await keyWithExpiry(tenantId, null);
    await adminA.revokeKey(key.id);
    expect((await adminA.request("PATCH", `/api/admin/keys/${key.id}`, { expiresAt: null })).status).toBe(409);
  });
});

const ECHO_ONLY = { path: "/api/v1/echo" };

async function usedUp(server: SluiceServer, key: CreatedKey): Promise<void> {
  for (let i = 0; i < 10; i++) if ((await echo(server, key)).status === 429) return;
  throw new Error("never refused");
}

const check = async (server: SluiceServer, key: CreatedKey, identifier: string): Promise<boolean> => {
  const got = await apiCall(server.url, "/api/v1/check", {
    method: "POST",
    key: key.key,
    body: { identifier, rule: "checked" },
  });
  expect(got.status).toBe(200);
  return (got.body as { allowed: boolean }).allowed;
};

describe("counter reset", () => {
  it("a key's counters reset through A give it its full quota on B within 1 s, B's cached refusal included; audited, not revertible", async () => {
    const tenantId = await tenantWithRules([
      { name: "per-key", algorithm: "sliding_log", limit: 3, windowMs: HOUR_MS, match: ECHO_ONLY },
      { name: "per-key-tb", algorithm: "token_bucket", limit: 2, windowMs: HOUR_MS, match: ECHO_ONLY },
    ]);
    const key = await keyWithExpiry(tenantId, null);
    const other = await keyWithExpiry(tenantId, null);
    await servedByB(key);
    await usedUp(a, key);
    await usedUp(b, key); // B now holds a cached refusal of the key
    await usedUp(b, other);
    expect((await echo(b, key)).status).toBe(429);

    const reset = await adminA.request("DELETE", `/api/admin/keys/${key.id}/counters`);
    expect(reset.status).toBe(204);
    const resetAt = performance.now();
    expect(await msUntil(resetAt, async () => (await echo(b, key)).status === 200, GIVE_UP_MS)).toBeLessThan(
      PROPAGATION_LIMIT_MS,
    );
    // Full quota: the token bucket's 2 (one spent just now), then refused again; the other key was not reset.
    expect((await echo(a, key)).status).toBe(200);
    expect((await echo(a, key)).status).toBe(429);
    expect((await echo(b, other)).status).toBe(429);

    const audit = await adminA.request("GET", `/api/admin/audit?tenantId=${tenantId}&limit=1`);
    const event = (
      audit.body as { id: string; action: string; target: string; after: unknown; revertible: boolean }[]
    )[0]!;
    expect(event).toMatchObject({
      action: "key.counters.reset",
      target: `key:${key.id}`,
      after: { rules: ["per-key", "per-key-tb", "probe"] },
      revertible: false,
    });
    expect((await adminB.request("POST", `/api/admin/audit/${event.id}/revert`)).status).toBe(409);
  });

  it("one identifier of an identifier rule is reset through A, in force on B within 1 s; other identifiers keep their count", async () => {
    const tenantId = await tenantWithRules([
      { name: "checked", scope: "identifier", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS },
    ]);
    const key = await keyWithExpiry(tenantId, null);
    await servedByB(key);
    const who = "user/42 é"; // a `/` and non-ASCII: the identifier travels as a query parameter
    expect(await check(b, key, who)).toBe(true);
    expect(await check(b, key, who)).toBe(false);
    expect(await check(b, key, "someone-else")).toBe(true);
    expect(await check(b, key, "someone-else")).toBe(false);

    const reset = await adminA.request(
      "DELETE",
      `/api/admin/tenants/${tenantId}/rules/checked/counters?identifier=${encodeURIComponent(who)}`,
    );
    expect(reset.status).toBe(204);
    const resetAt = performance.now();
    expect(await msUntil(resetAt, () => check(b, key, who), GIVE_UP_MS)).toBeLessThan(PROPAGATION_LIMIT_MS);
    expect(await check(a, key, "someone-else")).toBe(false);
    const audit = await adminA.request("GET", `/api/admin/audit?tenantId=${tenantId}&limit=1`);
    expect((audit.body as unknown[])[0]).toMatchObject({
      action: "identifier.counters.reset",
      target: `tenant:${tenantId}`,
      after: { rule: "checked", identifier: who },
    });
  });

  it.each([
    ["an unknown rule", "nope", "?identifier=x", 404],
    ["a rule that is not identifier-scoped", "per-key", "?identifier=x", 404],
    ["no identifier", "checked", "", 422],
    ["an empty identifier", "checked", "?identifier=", 422],
  ])("identifier reset: %s (rule %s, query %j) answers %i", async (_what, rule, query, status) => {
    const tenantId = await tenantWithRules([
      { name: "checked", scope: "identifier", limit: 1, windowMs: HOUR_MS },
      { name: "per-key", limit: 1, windowMs: HOUR_MS, match: ECHO_ONLY },
    ]);
    const got = await adminA.request("DELETE", `/api/admin/tenants/${tenantId}/rules/${rule}/counters${query}`);
    expect(got.status).toBe(status);
    if (status === 422) expect(Object.keys((got.body as { errors: object }).errors)).toEqual(["identifier"]);
  });

  it("an unknown key is 404", async () => {
    expect((await adminA.request("DELETE", "/api/admin/keys/Zz9Zz9Zz/counters")).status).toBe(404);
  });
});
