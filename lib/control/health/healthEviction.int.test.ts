/**
 * GET /api/health against a throwaway redis-server started with `--maxmemory-policy allkeys-lru`
 * (its counters could be evicted and limits silently reset): still 200 (the instance serves), with
 * the policy and a warning in the body. The route handler is called directly.
 */
import { afterAll, expect, it } from "vitest";
import { startRedisServer } from "@/test/support/redisServer";
import { callRoute } from "@/test/support/routeCall";
import { routeTestEnv } from "@/test/support/routeTestEnv";

const lru = await startRedisServer({ args: ["--maxmemory-policy", "allkeys-lru"] });
const env = routeTestEnv("healthlru", { redisUrl: lru.url });
const health = await import("@/app/api/health/route");

afterAll(async () => {
  const { getRedis } = await import("@/lib/redis/client");
  getRedis().disconnect();
  await env.close().catch(() => undefined);
  await lru.stop();
});

it("reports an allkeys-lru Redis with a warning, and stays 200", async () => {
  const answer = await callRoute(health.GET as never);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ redis: "ok", db: "ok", redisMaxmemoryPolicy: "allkeys-lru" });
  expect(answer.body.warnings).toEqual([expect.stringMatching(/maxmemory-policy is allkeys-lru.*noeviction/)]);
});

it("sees a policy changed at run time (read on each check; checks are cached for 1 s, lib/control/health/healthCache.ts)", async () => {
  const { getRedis } = await import("@/lib/redis/client");
  await getRedis().call("CONFIG", "SET", "maxmemory-policy", "noeviction");
  const { HEALTH_MAX_AGE_MS } = await import("@/lib/control/health/healthCache");
  await new Promise((resolve) => setTimeout(resolve, HEALTH_MAX_AGE_MS + 50));
  const answer = await callRoute(health.GET as never);
  expect(answer.body).toEqual({ redis: "ok", db: "ok", redisMaxmemoryPolicy: "noeviction" });
});
