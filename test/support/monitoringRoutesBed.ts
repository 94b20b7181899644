/**
 * What the monitoring route tests share (lib/monitoring/query/monitoringRoutes.int.test.ts and
 * keyDecisionsRoute.int.test.ts): `monitoringRoutesBed(label)`, called at the top of the test file,
 * sets the route environment under a Redis prefix of its own, loads the admin routes, and before the
 * tests creates a tenant with a `per-key` rule (3 per minute, enforce) and a `trial` rule (1 per
 * minute, shadow) and two keys, then sends real traffic through the /api/v1/echo handler (admit →
 * limiter → recorder) and flushes it: key 1 ("busy <b>key</b>") six requests inside one fixed window
 * (3 admitted, 3 refused by per-key; the 2nd and 3rd would be refused by trial, the last a POST to
 * /api/v1/echo/a/b?secret=1), key 2 ("quiet key") one. `seeded()` answers the tenant and keys after
 * that. Deletes its tenant (keys and rules cascade) and its prefix after the tests.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { deleteTenants } from "./adminClient";
import { callRoute, type RouteAnswer } from "./routeCall";
import { loadRoutes, routeTestEnv, type Routes } from "./routeTestEnv";
import { awayFromWindowEdge, TEST_DATABASE_URL } from "./sluiceEnv";

export interface SeededKey {
  id: string;
  key: string;
}

export interface SeededTraffic {
  tenantId: string;
  key1: SeededKey;
  key2: SeededKey;
}

export async function monitoringRoutesBed(label: string) {
  const { auth, close } = routeTestEnv(label);
  // Loaded after the environment is set: config() reads it once, on first use.
  const routes = await loadRoutes(
    "tenants",
    "tenantKeys",
    "tenantRules",
    "key",
    "echo",
    "traffic",
    "refusalRate",
    "hotKeys",
    "hotDescriptors",
    "nearLimit",
    "keyDecisions",
  );
  const { tenants, tenantKeys, tenantRules, echo } = routes;
  const { services } = await import("@/lib/runtime/services");
  let seeded: SeededTraffic | undefined;

  const admin = (
    handler: Routes,
    init: { method?: string; path?: string; body?: unknown; params?: Record<string, string> } = {},
  ): Promise<RouteAnswer> => callRoute(handler[init.method ?? "GET"], { ...init, headers: auth });

  beforeAll(async () => {
    const tenant = await admin(tenants, {
      method: "POST",
      body: { name: `monitoring-routes-${randomBytes(4).toString("hex")}` },
    });
    expect(tenant.status).toBe(201);
    const tenantId: string = tenant.body.id;
    seeded = { tenantId, key1: { id: "", key: "" }, key2: { id: "", key: "" } };
    const rules = await admin(tenantRules, {
      method: "PUT",
      params: { tenantId },
      body: [
        { name: "per-key", algorithm: "fixed_window", limit: 3, windowMs: 60_000 },
        { name: "trial", algorithm: "fixed_window", limit: 1, windowMs: 60_000, mode: "shadow" },
      ],
    });
    expect(rules.status).toBe(200);
    const key1: SeededKey = (
      await admin(tenantKeys, { method: "POST", params: { tenantId }, body: { name: "busy <b>key</b>" } })
    ).body;
    const key2: SeededKey = (
      await admin(tenantKeys, { method: "POST", params: { tenantId }, body: { name: "quiet key" } })
    ).body;
    seeded = { tenantId, key1, key2 };

    // Six requests of key 1 inside one fixed window: 3 admitted (the 2nd and 3rd would be refused by
    // the shadow rule), 3 refused by per-key; one request of key 2.
    await awayFromWindowEdge(60_000, 15_000);
    const call = (k: string, method: string, path: string) =>
      callRoute(echo[method], { method, path, headers: { authorization: `Bearer ${k}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(key1.key, "GET", `/api/v1/echo?i=${i}`)).status);
    statuses.push((await call(key1.key, "POST", "/api/v1/echo/a/b?secret=1")).status);
    statuses.push((await call(key2.key, "GET", "/api/v1/echo")).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 200]);
    expect(await services().recorder.drain()).toBe("written");
  });

  afterAll(async () => {
    await services().recorder.stop();
    await deleteTenants(TEST_DATABASE_URL, seeded ? [seeded.tenantId] : []);
    await close();
  });

  return {
    routes,
    admin,
    /** The tenant and keys the set-up created (after beforeAll). */
    seeded(): SeededTraffic {
      if (!seeded) throw new Error("monitoringRoutesBed: the set-up has not run");
      return seeded;
    },
  };
}
