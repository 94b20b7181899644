/**
 * The dashboard's read views of a tenant and a key through the route handlers (called directly, no
 * server), against the test database and the shared Redis under this file's own prefix:
 * GET /tenants/{id}, GET /keys/{id} (rules told apart, effective = what enforcement applies).
 * Remaining quota: keyQuota.int.test.ts, tenantQuota.int.test.ts, quotaUnavailable.int.test.ts.
 * Cleans up as test/support/quotaRoutesBed.ts says.
 */
import { describe, expect, it } from "vitest";
import { callRoute } from "@/test/support/routeCall";
import { quotaRoutesBed } from "@/test/support/quotaRoutesBed";

const { routes, runtime, admin, newTenant, newKey, putTenantRules, putKeyRules } = await quotaRoutesBed("views");
const { tenant, key } = routes;

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
    expect(res.body).toMatchObject({
      id: k.id,
      tenantId: t.id,
      name: "a key",
      prefix: `sluice_${k.id}`,
      revokedAt: null,
      lastUsedAt: null,
      tenantName: t.name,
    });
    expect(res.body.createdAt).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain(k.key.slice(-22));
    expect(res.body.rules.tenant.map((r: { name: string }) => r.name)).toEqual(["per-key", "per-ip", "ids"]);
    expect(res.body.rules.overrides.map((r: { name: string; limit: number }) => [r.name, r.limit])).toEqual([
      ["extra", 1],
      ["per-key", 30],
    ]);
    expect(
      res.body.rules.effective.map((r: { name: string; limit: number; source: string }) => [r.name, r.limit, r.source]),
    ).toEqual([
      ["per-key", 30, "override"],
      ["per-ip", 10, "tenant"],
      ["ids", 5, "tenant"],
      ["extra", 1, "override"],
    ]);
    // Exactly what this instance enforces for the key (its access cache, refreshed by the PUTs).
    const enforced = runtime
      .services()
      .access.key(k.id)!
      .rules.map((r) => ({ ...r.rule, source: r.override ? "override" : "tenant" }));
    expect(res.body.rules.effective).toEqual(enforced);
  });

  it("404 for an unknown key", async () => {
    expect((await admin(key, "GET", "/keys/ZZZZZZZZ", { keyId: "ZZZZZZZZ" })).status).toBe(404);
  });
});
