/**
 * GET /api/admin/tenants/{tenantId}/quota, the remaining quota of a tenant's keys, through the route
 * handlers (called directly, no server), against the test database and the shared Redis under this
 * file's own prefix, read with peek while real requests go through /api/v1/echo. One key's quota:
 * keyQuota.int.test.ts; Redis outages: quotaUnavailable.int.test.ts.
 * Cleans up as test/support/quotaRoutesBed.ts says.
 */
import { describe, expect, it } from "vitest";
import { quotaRoutesBed } from "@/test/support/quotaRoutesBed";

const { routes, runtime, admin, newTenant, newKey, putTenantRules, putKeyRules, callEcho } =
  await quotaRoutesBed("tenantquota");
const { key, tenantQuota } = routes;

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
      {
        keyId: first.id,
        keyName: "first",
        rules: [expect.objectContaining({ name: "per-key", source: "tenant", limit: 3, remaining: 3 })],
      },
      {
        keyId: second.id,
        keyName: "<i>second</i>",
        rules: [expect.objectContaining({ name: "per-key", source: "override", limit: 20, remaining: 19 })],
      },
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
