/**
 * What the dashboard's read-view route tests share (lib/control/admin/tenantKeyViews.int.test.ts,
 * keyQuota.int.test.ts, tenantQuota.int.test.ts, quotaUnavailable.int.test.ts):
 * `quotaRoutesBed(label)`, called at the top of the test file, sets the route environment under a
 * Redis prefix of its own (`prefix`), loads the routes, and answers helpers that call them as the
 * token admin: a new tenant (named `quota-<b>hex</b>`, markup on purpose) and key, a tenant's and a
 * key's rules put (asserting 200), a key's quota, one rule of a quota answer, and a request to
 * /api/v1/echo from an ip. After the tests it deletes the tenants it made (keys, rules and refs
 * cascade) and its Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, expect } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { deleteTenants } from "./adminClient";
import { callRoute, type RouteAnswer } from "./routeCall";
import { adminCaller, loadRoutes, routeTestEnv } from "./routeTestEnv";
import { TEST_DATABASE_URL } from "./sluiceEnv";

export async function quotaRoutesBed(label: string) {
  const { prefix, auth, close } = routeTestEnv(label);
  // Loaded after the environment is set: config() reads it once, on first use.
  const routes = await loadRoutes(
    "tenants",
    "tenant",
    "tenantKeys",
    "key",
    "tenantRules",
    "keyRules",
    "keyQuota",
    "tenantQuota",
    "echo",
  );
  const { tenants, tenantKeys: keys, tenantRules, keyRules, keyQuota, echo } = routes;
  const runtime = await import("@/lib/runtime/services");
  const created: string[] = [];

  afterAll(async () => {
    await deleteTenants(TEST_DATABASE_URL, created);
    await close();
  });

  const admin = adminCaller(auth);

  async function newTenant(): Promise<{ id: string; name: string; createdAt: string }> {
    const res = await admin(
      tenants,
      "POST",
      "/tenants",
      {},
      { name: `quota-<b>${randomBytes(4).toString("hex")}</b>` },
    );
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

  function callEcho(apiKey: string, ip: string): Promise<RouteAnswer> {
    return callRoute(echo.GET, {
      path: "/api/v1/echo",
      headers: { authorization: `Bearer ${apiKey}`, "x-forwarded-for": ip },
    });
  }

  return {
    prefix,
    routes,
    runtime,
    admin,
    newTenant,
    newKey,
    putTenantRules,
    putKeyRules,
    callEcho,
    quotaOf: (keyId: string, query = "") => admin(keyQuota, "GET", `/keys/${keyId}/quota${query}`, { keyId }),
    ruleOf: (answer: RouteAnswer, name: string) => answer.body.rules.find((r: { name: string }) => r.name === name),
  };
}
