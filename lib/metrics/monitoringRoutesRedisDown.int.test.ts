/**
 * The monitoring admin routes while Redis cannot answer (REDIS_URL names a closed loopback port):
 * every read answers 503 `limiter_unavailable` as problem+json with Retry-After, never 500; bad
 * parameters are still 422 and an unknown key still 404 (both decided before Redis is asked).
 * The key is created in the test database directly (the admin API would need Redis to announce
 * it) and deleted afterwards.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { freePort } from "@/test/support/freePort";
import { callRoute, type RouteHandler } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { newId } from "../ids";

const TOKEN = `monitoring-down-${randomBytes(8).toString("hex")}`;
process.env.DATABASE_URL = TEST_DATABASE_URL;
process.env.SLUICE_REDIS_PREFIX = `sluicetest:mondown:${randomBytes(4).toString("hex")}:`;
process.env.SLUICE_ADMIN_TOKEN = TOKEN;
delete process.env.SLUICE_ADMIN_EMAIL;
delete process.env.SLUICE_ADMIN_PASSWORD;

type Routes = Record<string, RouteHandler>;
let routes: Record<string, Routes>;
let db: typeof import("@/lib/db/client");
const tenantId = newId();
const keyId = newId();
const headers = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
  routes = {
    traffic: (await import("@/app/api/admin/monitoring/traffic/route")) as unknown as Routes,
    "refusal-rate": (await import("@/app/api/admin/monitoring/refusal-rate/route")) as unknown as Routes,
    "hot-keys": (await import("@/app/api/admin/monitoring/hot-keys/route")) as unknown as Routes,
    "near-limit": (await import("@/app/api/admin/monitoring/near-limit/route")) as unknown as Routes,
    decisions: (await import("@/app/api/admin/keys/[keyId]/decisions/route")) as unknown as Routes,
  };
  db = await import("@/lib/db/client");
  await db.getDb().tenant.create({ data: { id: tenantId, name: `monitoring-down-${tenantId}` } });
  await db.getDb().apiKey.create({ data: { id: keyId, tenantId, name: "k", prefix: `sluice_${keyId}`, secretHash: "0".repeat(64) } });
});

afterAll(async () => {
  const { services } = await import("@/lib/runtime/services");
  await services().recorder.stop();
  await deleteTenants(TEST_DATABASE_URL, [tenantId]);
  await db.closeDb();
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
    expect((await callRoute(routes.traffic!.GET, { path: "/api/admin/monitoring/traffic?range=2h", headers })).status).toBe(422);
    expect((await callRoute(routes.decisions!.GET, { path: "/x?limit=99", headers, params: { keyId } })).status).toBe(422);
    expect((await callRoute(routes.decisions!.GET, { path: "/x", headers, params: { keyId: "ZZZZZZZZ" } })).status).toBe(404);
  });
});
