/**
 * EVALSHA with a transparent reload: after SCRIPT FLUSH the next decision still succeeds, and so do
 * concurrent decisions racing thousands of flushes (ioredis retries NOSCRIPT as EVAL per connection).
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

it("decisions racing repeated SCRIPT FLUSHes never fail (none answered by the fail mode)", async () => {
  const errors: string[] = [];
  // A generous deadline: what may fail here is a lost script, not a slow machine.
  const limiter = createLimiter({ redis, prefix: "reload:", timeoutMs: 5000, onUnavailable: (error) => errors.push(error.message) });
  const rule = limiterRule({ name: "race", failMode: "closed", limit: 1_000_000 });
  const flusher = createRedisClient({ url: server.url, cluster: false, timeoutMs: 2000, autoPipelining: false });
  let running = true;
  let flushes = 0;
  const flushing = (async () => {
    while (running) {
      await flusher.script("FLUSH");
      flushes++;
    }
  })();
  const sources: string[] = [];
  const until = Date.now() + 2_000;
  await Promise.all(
    Array.from({ length: 32 }, async (_, loop) => {
      while (Date.now() < until) {
        const decision = await limiter.decide([rule], { tenantId: "t", keyId: `race${loop}` });
        sources.push(decision.results[0]!.source);
        if (loop % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  running = false;
  await flushing;
  flusher.disconnect();
  expect(flushes).toBeGreaterThan(50);
  expect(sources.length).toBeGreaterThan(100);
  console.info(`script race: ${flushes} flushes, ${sources.length} decisions, errors: ${JSON.stringify(errors)}`);
  expect(sources.filter((s) => s !== "redis")).toEqual([]);
});
