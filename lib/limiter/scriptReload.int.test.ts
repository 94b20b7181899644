/**
 * EVALSHA with a transparent reload: after SCRIPT FLUSH the next decision still succeeds.
 * Runs on a throwaway redis-server, so the shared Redis's script cache is never flushed.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRedisServer, type RedisServerHandle } from "@/test/support/redisServer";
import { limiterRule } from "@/test/support/rules";
import { createRedisClient, type RedisClient } from "../redis/connect";
import { createLimiter } from "./decide";

let server: RedisServerHandle;
let redis: RedisClient;

beforeAll(async () => {
  server = await startRedisServer();
  redis = createRedisClient({ url: server.url, cluster: false, timeoutMs: 2000, autoPipelining: false });
});

afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

it("the next decision after SCRIPT FLUSH still succeeds, with its counters intact", async () => {
  const limiter = createLimiter({ redis, prefix: "reload:", timeoutMs: 2000 });
  const rule = limiterRule({ limit: 3 });
  const subject = { tenantId: "t", keyId: "k" };
  await limiter.decide([rule], subject, { nowMs: 1_700_000_000_000 });
  await redis.script("FLUSH");
  expect(await redis.script("EXISTS", "0000000000000000000000000000000000000000")).toEqual([0]);
  const after = await limiter.decide([rule], subject, { nowMs: 1_700_000_000_001 });
  expect(after.results[0]).toMatchObject({ source: "redis", allowed: true, remaining: 1 });
});
