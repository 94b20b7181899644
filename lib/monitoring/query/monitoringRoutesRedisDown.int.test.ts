/**
 * The monitoring admin routes while Redis cannot answer (REDIS_URL names a closed loopback port):
 * every read answers 503 `limiter_unavailable` as problem+json with Retry-After, never 500; bad
 * parameters are still 422 and an unknown key still 404 (both decided before Redis is asked).
 * The key is created in the test database directly (the admin API would need Redis to announce
 * it) and deleted afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { freePort } from "@/test/support/freePort";
import { callRoute } from "@/test/support/routeCall";
import { loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { newId } from "../../common/ids";

const { auth: headers, close } = routeTestEnv("mondown", { redisUrl: `redis://127.0.0.1:${await freePort()}` });
// Loaded after the environment is set: config() reads it once, on first use.
const loaded = await loadRoutes("traffic", "refusalRate", "hotKeys", "nearLimit", "keyDecisions");
// Named by their paths.
const routes = {
  traffic: loaded.traffic,
  "refusal-rate": loaded.refusalRate,
  "hot-keys": loaded.hotKeys,
  "near-limit": loaded.nearLimit,
  decisions: loaded.keyDecisions,
};
const db = await import("@/lib/db/client");
const tenantId = newId();
const keyId = newId();

beforeAll(async () => {
  await db.getDb().tenant.create({ data: { id: tenantId, name: `monitoring-down-${tenantId}` } });
  await db
    .getDb()
    .apiKey.create({ data: { id: keyId, tenantId, name: "k", prefix: `sluice_${keyId}`, secretHash: "0".repeat(64) } });
});

afterAll(async () => {
  const { services } = await import("@/lib/runtime/services");
  await services().recorder.stop();
  await deleteTenants(TEST_DATABASE_URL, [tenantId]);
  await close();
});

describe("Redis down", () => {
  it("every monitoring read is a 503 limiter_unavailable with Retry-After", async () => {
    for (const [name, handler] of Object.entries(routes)) {
      const params: Record<string, string> = name === "decisions" ? { keyId } : {};
      const res = await callRoute(handler.GET, { path: `/api/admin/monitoring/${name}`, headers, params });
      expect(res.status, name).toBe(503);
      expect(res.body.title).toBe("Service Unavailable");
      expect(res.headers.get("retry-after"), name).toBe("1");
    }
  });

  it("bad parameters are still 422, an unknown key still 404", async () => {
    expect(
      (await callRoute(routes.traffic.GET, { path: "/api/admin/monitoring/traffic?range=2h", headers })).status,
    ).toBe(422);
    expect((await callRoute(routes.decisions.GET, { path: "/x?limit=99", headers, params: { keyId } })).status).toBe(
      422,
    );
    expect((await callRoute(routes.decisions.GET, { path: "/x", headers, params: { keyId: "ZZZZZZZZ" } })).status).toBe(
      404,
    );
  });
});
