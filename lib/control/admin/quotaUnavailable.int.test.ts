/**
 * The quota routes (GET /api/admin/keys/{keyId}/quota and /tenants/{tenantId}/quota) answer 503
 * limiter_unavailable when Redis cannot answer, never a made-up figure: outages staged with limiters
 * on a closed port and on a silent server, called directly (no server) against the test database.
 * Cleans up as test/support/quotaRoutesBed.ts says.
 */
import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "@/test/support/freePort";
import { quotaRoutesBed } from "@/test/support/quotaRoutesBed";

const {
  prefix: PREFIX,
  routes,
  runtime,
  admin,
  newTenant,
  newKey,
  putTenantRules,
  quotaOf,
} = await quotaRoutesBed("quotadown");
const { tenantQuota } = routes;

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
    for (const res of [
      await quotaOf(keyId),
      await admin(tenantQuota, "GET", `/tenants/${tenantId}/quota`, { tenantId }),
    ]) {
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
