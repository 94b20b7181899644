/**
 * The dashboard's read views of tenants and keys through the route handlers (called directly, no
 * server), against the test database and the shared Redis under this file's own prefix:
 * GET /tenants/{id}, GET /keys/{id} (rules told apart, effective = what enforcement applies), and
 * remaining quota of a key and of a tenant's keys, read with peek while real requests go through
 * /api/v1/echo. Redis outages are staged with limiters on a closed port and on a silent server.
 * Cleans up its tenants (keys, rules and refs cascade), their audit events, and its Redis prefix.
 */
import { createServer, type Server } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { freePort } from "@/test/support/freePort";
import { callRoute, type RouteAnswer } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv, type Routes } from "@/test/support/routeTestEnv";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";

const { prefix: PREFIX, auth, close } = routeTestEnv("quota");
// Loaded after the environment is set: config() reads it once, on first use.
const { tenants, tenant, tenantKeys: keys, key, tenantRules, keyRules, keyQuota, tenantQuota, echo } =
  await loadRoutes("tenants", "tenant", "tenantKeys", "key", "tenantRules", "keyRules", "keyQuota", "tenantQuota", "echo");
const runtime = await import("@/lib/runtime/services");
const created: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

const admin = (routes: Routes, method: string, path: string, params: Record<string, string>, body?: unknown): Promise<RouteAnswer> =>
  callRoute(routes[method], { method, path: `/api/admin${path}`, params, body, headers: auth });

async function newTenant(): Promise<{ id: string; name: string; createdAt: string }> {
  const res = await admin(tenants, "POST", "/tenants", {}, { name: `quota-<b>${randomBytes(4).toString("hex")}</b>` });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  return res.body;
}

async function newKey(tenantId: string, name = "a key"): Promise<{ id: string; key: string }> {
  const res = await admin(keys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name });
  expect(res.status).toBe(201);
  return res.body;
}

async function putTenantRules(tenantId: string, rules: RuleInput[]): Promise<void> {
  expect((await admin(tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, rules)).status).toBe(200);
}

async function putKeyRules(keyId: string, rules: RuleInput[]): Promise<void> {
  expect((await admin(keyRules, "PUT", `/keys/${keyId}/rules`, { keyId }, rules)).status).toBe(200);
}

const quotaOf = (keyId: string, query = "") => admin(keyQuota, "GET", `/keys/${keyId}/quota${query}`, { keyId });
const ruleOf = (answer: RouteAnswer, name: string) => answer.body.rules.find((r: { name: string }) => r.name === name);

function callEcho(apiKey: string, ip: string): Promise<RouteAnswer> {
  return callRoute(echo.GET, { path: "/api/v1/echo", headers: { authorization: `Bearer ${apiKey}`, "x-forwarded-for": ip } });
}

describe("GET /api/admin/tenants/{tenantId}", () => {
  it("200 with id, name and createdAt, as the list shows it, and its gateway upstream (null when none)", async () => {
    const t = await newTenant();
    const res = await admin(tenant, "GET", `/tenants/${t.id}`, { tenantId: t.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...t, upstream: null });
  });

  it("404 for an unknown or malformed id, 401 without a token, 405 for other methods", async () => {
    expect((await admin(tenant, "GET", "/tenants/ZZZZZZZZ", { tenantId: "ZZZZZZZZ" })).status).toBe(404);
    expect((await admin(tenant, "GET", "/tenants/x", { tenantId: "../x" })).status).toBe(404);
    expect((await callRoute(tenant.GET, { params: { tenantId: "ZZZZZZZZ" } })).status).toBe(401);
    const res = await admin(tenant, "DELETE", "/tenants/ZZZZZZZZ", { tenantId: "ZZZZZZZZ" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("GET /api/admin/keys/{keyId}", () => {
  it("keeps the key's fields and adds tenantName and its rules: tenant, overrides, and the effective merge enforcement applies", async () => {
    const t = await newTenant();
    const k = await newKey(t.id);
    await putTenantRules(t.id, [
      { name: "per-key", limit: 3, windowMs: 60_000 },
      { name: "per-ip", scope: "ip", limit: 10, windowMs: 60_000 },
      { name: "ids", scope: "identifier", limit: 5, windowMs: 1_000 },
    ]);
    await putKeyRules(k.id, [
      { name: "extra", limit: 1, windowMs: 1_000, mode: "shadow" },
      { name: "per-key", limit: 30, windowMs: 60_000 },
    ]);
    const res = await admin(key, "GET", `/keys/${k.id}`, { keyId: k.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: k.id, tenantId: t.id, name: "a key", prefix: `sluice_${k.id}`, revokedAt: null, lastUsedAt: null, tenantName: t.name });
    expect(res.body.createdAt).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain(k.key.slice(-22));
    expect(res.body.rules.tenant.map((r: { name: string }) => r.name)).toEqual(["per-key", "per-ip", "ids"]);
    expect(res.body.rules.overrides.map((r: { name: string; limit: number }) => [r.name, r.limit])).toEqual([["extra", 1], ["per-key", 30]]);
    expect(res.body.rules.effective.map((r: { name: string; limit: number; source: string }) => [r.name, r.limit, r.source])).toEqual([
      ["per-key", 30, "override"],
      ["per-ip", 10, "tenant"],
      ["ids", 5, "tenant"],
      ["extra", 1, "override"],
    ]);
    // Exactly what this instance enforces for the key (its access cache, refreshed by the PUTs).
    const enforced = runtime.services().access.key(k.id)!.rules.map((r) => ({ ...r.rule, source: r.override ? "override" : "tenant" }));
    expect(res.body.rules.effective).toEqual(enforced);
  });

  it("404 for an unknown key", async () => {
    expect((await admin(key, "GET", "/keys/ZZZZZZZZ", { keyId: "ZZZZZZZZ" })).status).toBe(404);
  });
});

describe("GET /api/admin/keys/{keyId}/quota", () => {
  const rules: RuleInput[] = [
    { name: "per-key", algorithm: "sliding_log", limit: 3, windowMs: 60_000 },
    { name: "per-ip", scope: "ip", algorithm: "sliding_log", limit: 10, windowMs: 60_000 },
    { name: "total", scope: "tenant", algorithm: "token_bucket", limit: 100, burst: 200, windowMs: 60_000 },
    { name: "ids", scope: "identifier", limit: 5, windowMs: 60_000 },
  ];

  it("remaining falls with each admitted request and reaches 0 with a retry time; reading it never consumes", async () => {
    const t = await newTenant();
    const k = await newKey(t.id);
    await putTenantRules(t.id, rules);
    const fresh = await quotaOf(k.id);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("cache-control")).toBe("no-store");
    expect(fresh.body.nowMs).toEqual(expect.any(Number));
    expect(fresh.body.rules).toEqual([
      { name: "per-key", source: "tenant", scope: "key", algorithm: "sliding_log", mode: "enforce", limit: 3, capacity: 3, remaining: 3, resetMs: 0, retryAfterMs: 0 },
      { name: "per-ip", source: "tenant", scope: "ip", algorithm: "sliding_log", mode: "enforce", limit: 10, capacity: 10, remaining: null, resetMs: null, retryAfterMs: null },
      { name: "total", source: "tenant", scope: "tenant", algorithm: "token_bucket", mode: "enforce", limit: 100, capacity: 200, remaining: 200, resetMs: 0, retryAfterMs: 0 },
      { name: "ids", source: "tenant", scope: "identifier", algorithm: "sliding_window", mode: "enforce", limit: 5, capacity: 5, remaining: null, resetMs: null, retryAfterMs: null },
    ]);

    expect((await callEcho(k.key, "192.0.2.10")).status).toBe(200);
    expect((await callEcho(k.key, "192.0.2.10")).status).toBe(200);
    const twice = [await quotaOf(k.id), await quotaOf(k.id)];
    for (const answer of twice) {
      expect(ruleOf(answer, "per-key")).toMatchObject({ remaining: 1, retryAfterMs: 0 });
      expect(ruleOf(answer, "per-key").resetMs).toBeGreaterThan(0);
      expect(ruleOf(answer, "total").remaining).toBe(198);
    }

    expect((await callEcho(k.key, "192.0.2.10")).status).toBe(200);
    const empty = await quotaOf(k.id);
    expect(ruleOf(empty, "per-key").remaining).toBe(0);
    expect(ruleOf(empty, "per-key").retryAfterMs).toBeGreaterThan(0);
    expect(ruleOf(empty, "per-key").retryAfterMs).toBeLessThanOrEqual(60_000);
    const refused = await callEcho(k.key, "192.0.2.10");
    expect(refused.status).toBe(429);
    expect(refused.body["violated-policies"]).toEqual(["per-key"]);
  });

  it("ip and identifier rules are read for the ip and identifier the query names", async () => {
    const t = await newTenant();
    const k = await newKey(t.id);
    await putTenantRules(t.id, rules);
    expect((await callEcho(k.key, "192.0.2.20")).status).toBe(200);
    const forIp = await quotaOf(k.id, "?ip=192.0.2.20");
    expect(forIp.status).toBe(200);
    expect(ruleOf(forIp, "per-ip")).toMatchObject({ remaining: 9, retryAfterMs: 0 });
    expect(ruleOf(forIp, "ids").remaining).toBeNull();
    expect(ruleOf(await quotaOf(k.id, "?ip=::ffff:192.0.2.20"), "per-ip").remaining).toBe(9);
    expect(ruleOf(await quotaOf(k.id, "?ip=192.0.2.21"), "per-ip").remaining).toBe(10);
    const forId = await quotaOf(k.id, "?identifier=user-1");
    expect(ruleOf(forId, "ids")).toMatchObject({ remaining: 5, retryAfterMs: 0 });
    expect(ruleOf(forId, "per-ip").remaining).toBeNull();
  });

  it("422 for a bad ip or an unknown parameter; 404 for an unknown key; 409 for a revoked one", async () => {
    const t = await newTenant();
    const k = await newKey(t.id);
    const bad = await quotaOf(k.id, "?ip=not-an-ip");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.ip).toEqual(["ip must be an IPv4 or IPv6 address"]);
    expect((await quotaOf(k.id, "?limit=3")).status).toBe(422);
    expect((await quotaOf("ZZZZZZZZ")).status).toBe(404);
    expect((await admin(key, "DELETE", `/keys/${k.id}`, { keyId: k.id })).status).toBe(204);
    const revoked = await quotaOf(k.id);
    expect(revoked.status).toBe(409);
    expect(revoked.body.detail).toMatch(/revoked/);
  });
});

describe("GET /api/admin/tenants/{tenantId}/quota", () => {
  it("every live key with its key-scope rules (overrides in place), revoked keys left out, tenant-scope rules once", async () => {
    const t = await newTenant();
    const first = await newKey(t.id, "first");
    const second = await newKey(t.id, "<i>second</i>");
    const gone = await newKey(t.id, "gone");
    await putTenantRules(t.id, [
      { name: "per-key", algorithm: "sliding_log", limit: 3, windowMs: 60_000 },
      { name: "per-ip", scope: "ip", limit: 10, windowMs: 60_000 },
      { name: "total", scope: "tenant", algorithm: "sliding_log", limit: 50, windowMs: 60_000 },
    ]);
    await putKeyRules(second.id, [{ name: "per-key", algorithm: "sliding_log", limit: 20, windowMs: 60_000 }]);
    await admin(key, "DELETE", `/keys/${gone.id}`, { keyId: gone.id });
    expect((await callEcho(second.key, "192.0.2.30")).status).toBe(200);

    const res = await admin(tenantQuota, "GET", `/tenants/${t.id}/quota`, { tenantId: t.id });
    expect(res.status).toBe(200);
    expect(res.body.truncated).toBe(false);
    expect(res.body.nowMs).toEqual(expect.any(Number));
    expect(res.body.tenantRules).toEqual([expect.objectContaining({ name: "total", scope: "tenant", remaining: 49 })]);
    expect(res.body.keys).toEqual([
      { keyId: first.id, keyName: "first", rules: [expect.objectContaining({ name: "per-key", source: "tenant", limit: 3, remaining: 3 })] },
      { keyId: second.id, keyName: "<i>second</i>", rules: [expect.objectContaining({ name: "per-key", source: "override", limit: 20, remaining: 19 })] },
    ]);
  });

  it("bounded: beyond the bound the oldest keys are answered and `truncated` is true", async () => {
    const t = await newTenant();
    const first = await newKey(t.id, "first");
    await newKey(t.id, "second");
    const { quotaOfTenant } = await import("./quotaService");
    const quota = await quotaOfTenant(runtime.services().limiter, t.id, 1);
    expect(quota.keys.map((k) => k.keyId)).toEqual([first.id]);
    expect(quota.truncated).toBe(true);
  });

  it("404 for an unknown tenant, 422 for a query parameter", async () => {
    expect((await admin(tenantQuota, "GET", "/tenants/ZZZZZZZZ/quota", { tenantId: "ZZZZZZZZ" })).status).toBe(404);
    const t = await newTenant();
    expect((await admin(tenantQuota, "GET", `/tenants/${t.id}/quota?ip=1.2.3.4`, { tenantId: t.id })).status).toBe(422);
  });
});

describe("503 limiter_unavailable when Redis cannot answer (never a made-up figure)", () => {
  async function withLimiterOn(url: string, run: () => Promise<void>): Promise<void> {
    const { createRedisClient } = await import("@/lib/redis/connect");
    const { createLimiter } = await import("@/lib/limiter/decide");
    const redis = createRedisClient({ url, cluster: false, timeoutMs: 100, autoPipelining: false });
    const services = runtime.services();
    const real = services.quotaLimiter;
    services.quotaLimiter = createLimiter({ redis, prefix: PREFIX, timeoutMs: 100 });
    try {
      await run();
    } finally {
      services.quotaLimiter = real;
      redis.disconnect();
    }
  }

  async function expectUnavailable(keyId: string, tenantId: string): Promise<void> {
    for (const res of [await quotaOf(keyId), await admin(tenantQuota, "GET", `/tenants/${tenantId}/quota`, { tenantId })]) {
      expect(res.status).toBe(503);
      expect(res.body.title).toBe("Service Unavailable");
      expect(res.body.detail).toMatch(/Redis is unavailable or too slow/);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(res.body).not.toHaveProperty("rules");
    }
  }

  it("Redis down (nothing listens) and Redis silent (over its timeout)", async () => {
    const t = await newTenant();
    const k = await newKey(t.id);
    await putTenantRules(t.id, [{ name: "per-key", limit: 3, windowMs: 60_000 }]);
    await withLimiterOn(`redis://127.0.0.1:${await freePort()}`, () => expectUnavailable(k.id, t.id));

    const silent: Server = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      await withLimiterOn(`redis://127.0.0.1:${port}`, () => expectUnavailable(k.id, t.id));
    } finally {
      silent.close();
    }
    // And with Redis back, the same calls answer.
    expect((await quotaOf(k.id)).status).toBe(200);
  });
});
