/**
 * A change made through the admin API is in force on this instance when the API answers, or the
 * answer says it is not (lib/policy/changes/announceChange.ts). The reload that applies a change here is
 * made to fail by an injected fault in the access loader; the route handlers are called directly
 * against the test database and the shared Redis under this file's prefix.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { deleteTenants, uniqueName } from "@/test/support/adminClient";
import { callRoute } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const env = routeTestEnv("inforce");
const { tenants, tenantKeys, key, tenantRules } = await loadRoutes("tenants", "tenantKeys", "key", "tenantRules");
const { services } = await import("@/lib/runtime/services");
const { prismaAccessLoader } = await import("@/lib/policy/compiled/accessLoader");
const created: string[] = [];
let tenantId: string;

/** Every tenant reload of this instance fails from now on (until afterEach restores it). */
const breakReloads = () =>
  vi.spyOn(prismaAccessLoader, "loadTenant").mockRejectedValue(new Error("rule store unreachable (injected)"));

beforeAll(async () => {
  await services().access.ready();
  const tenant = await callRoute(tenants.POST, {
    method: "POST",
    headers: env.auth,
    body: { name: uniqueName("inforce") },
  });
  expect(tenant.status).toBe(201);
  created.push((tenantId = tenant.body.id));
});

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await env.close();
});

async function newKey(): Promise<{ id: string; key: string }> {
  const res = await callRoute(tenantKeys.POST, {
    method: "POST",
    headers: env.auth,
    params: { tenantId },
    body: { name: "k" },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("a change the instance could not apply is never answered as done", () => {
  it("revoking a key: 503 'saved but not yet in force' while this instance still knows the key; a retry applies it and answers 204", async () => {
    const live = await newKey();
    expect(services().access.key(live.id)).toBeDefined();
    const reloads = breakReloads();
    const revoked = await callRoute(key.DELETE, { method: "DELETE", headers: env.auth, params: { keyId: live.id } });
    expect(reloads).toHaveBeenCalled();
    // Today's main answered 204 here while this instance kept accepting the key.
    expect(revoked.status).toBe(503);
    expect(revoked.body.detail).toMatch(/saved but is not yet in force on this instance/);
    expect(revoked.body.saved).toBe(true);
    expect(revoked.headers.get("retry-after")).toBe("15");
    expect(services().access.key(live.id)).toBeDefined();

    vi.restoreAllMocks();
    const retried = await callRoute(key.DELETE, { method: "DELETE", headers: env.auth, params: { keyId: live.id } });
    expect(retried.status).toBe(204);
    expect(services().access.key(live.id)).toBeUndefined();
  });

  it("replacing rules: 503 while the old rules stay in force here; the saved list is what the store holds", async () => {
    breakReloads();
    const rules = [{ name: "per-key", limit: 7, windowMs: 60_000 }];
    const put = await callRoute(tenantRules.PUT, {
      method: "PUT",
      headers: env.auth,
      params: { tenantId },
      body: rules,
    });
    expect(put.status).toBe(503);
    expect(services().access.tenant(tenantId)?.rules ?? []).toHaveLength(0);
    vi.restoreAllMocks();
    const stored = await callRoute(tenantRules.GET, { headers: env.auth, params: { tenantId } });
    expect(stored.body).toEqual([expect.objectContaining({ name: "per-key", limit: 7 })]);
  });

  it("creating a key: the 503 still carries the new key's secret (shown only once)", async () => {
    breakReloads();
    const res = await callRoute(tenantKeys.POST, {
      method: "POST",
      headers: env.auth,
      params: { tenantId },
      body: { name: "k2" },
    });
    expect(res.status).toBe(503);
    expect(res.body.resource.key).toMatch(/^sluice_/);
    expect(services().access.key(res.body.resource.id)).toBeUndefined();
  });

  it("a reload that works answers as before (204), with the change in force here", async () => {
    const live = await newKey();
    const revoked = await callRoute(key.DELETE, { method: "DELETE", headers: env.auth, params: { keyId: live.id } });
    expect(revoked.status).toBe(204);
    expect(services().access.key(live.id)).toBeUndefined();
  });
});
