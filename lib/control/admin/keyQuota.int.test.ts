/**
 * GET /api/admin/keys/{keyId}/quota, a key's remaining quota, through the route handlers (called
 * directly, no server), against the test database and the shared Redis under this file's own prefix,
 * read with peek while real requests go through /api/v1/echo. A tenant's keys:
 * tenantQuota.int.test.ts; Redis outages: quotaUnavailable.int.test.ts.
 * Cleans up as test/support/quotaRoutesBed.ts says.
 */
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { quotaRoutesBed } from "@/test/support/quotaRoutesBed";

const { routes, admin, newTenant, newKey, putTenantRules, callEcho, quotaOf, ruleOf } = await quotaRoutesBed("quota");
const { key } = routes;

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
      {
        name: "per-key",
        source: "tenant",
        scope: "key",
        algorithm: "sliding_log",
        mode: "enforce",
        limit: 3,
        capacity: 3,
        remaining: 3,
        resetMs: 0,
        retryAfterMs: 0,
      },
      {
        name: "per-ip",
        source: "tenant",
        scope: "ip",
        algorithm: "sliding_log",
        mode: "enforce",
        limit: 10,
        capacity: 10,
        remaining: null,
        resetMs: null,
        retryAfterMs: null,
      },
      {
        name: "total",
        source: "tenant",
        scope: "tenant",
        algorithm: "token_bucket",
        mode: "enforce",
        limit: 100,
        capacity: 200,
        remaining: 200,
        resetMs: 0,
        retryAfterMs: 0,
      },
      {
        name: "ids",
        source: "tenant",
        scope: "identifier",
        algorithm: "sliding_window",
        mode: "enforce",
        limit: 5,
        capacity: 5,
        remaining: null,
        resetMs: null,
        retryAfterMs: null,
      },
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
