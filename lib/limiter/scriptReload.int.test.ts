/**
 * The decide script with a transparent reload (decideScript.ts): after SCRIPT FLUSH or FUNCTION
 * FLUSH the next decision still succeeds, and so do concurrent decisions racing thousands of
 * flushes (a missing function is loaded again, a call that still misses it goes as EVAL; ioredis
 * retries NOSCRIPT as EVAL per connection); a user refused functions by its ACL decides through
 * EVALSHA; a release and a give-back survive a SCRIPT FLUSH too. Runs on a throwaway redis-server,
 * so the shared Redis's scripts are never flushed.
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

const FLUSHES = [
  ["SCRIPT", "FLUSH"],
  ["FUNCTION", "FLUSH"],
] as const;

it.each(FLUSHES)("the next decision after %s FLUSH still succeeds, with its counters intact", async (...flush) => {
  const limiter = createLimiter({ redis, prefix: `reload-${flush[0]}:`, timeoutMs: 2000 });
  const rule = limiterRule({ limit: 3 });
  const subject = { tenantId: "t", keyId: "k" };
  await limiter.decide([rule], subject, { nowMs: 1_700_000_000_000 });
  expect(await redis.call("FUNCTION", "LIST", "LIBRARYNAME", "sluice_*")).toHaveLength(1);
  await redis.call(...flush);
  expect(await redis.call("FUNCTION", "LIST", "LIBRARYNAME", "sluice_*")).toHaveLength(flush[0] === "FUNCTION" ? 0 : 1);
  const after = await limiter.decide([rule], subject, { nowMs: 1_700_000_000_001 });
  expect(after.results[0]).toMatchObject({ source: "redis", allowed: true, remaining: 1 });
});

it("a release and a give-back after SCRIPT FLUSH still succeed (every script runs through lua/luaScript.ts)", async () => {
  const limiter = createLimiter({ redis, prefix: "reload-others:", timeoutMs: 2000 });
  const slots = limiterRule({ name: "slots", algorithm: "concurrency", limit: 1, windowMs: 30_000 });
  const charged = limiterRule({ name: "charged", limit: 3, chargeOn: ["4xx"] });
  const subject = { tenantId: "t", keyId: "k" };
  const now = 1_700_000_000_000;
  const held = await limiter.decide([slots], subject, { nowMs: now });
  const reserved = await limiter.decide([charged], subject, { nowMs: now });
  for (const run of [
    async () => expect(await limiter.release(held.lease!, { nowMs: now + 1 })).toBe(1),
    async () => expect(await limiter.giveBack(reserved, [charged], subject, { nowMs: now + 1 })).toBe(1),
  ]) {
    await redis.call("SCRIPT", "FLUSH");
    await run();
  }
});

it("a user whose ACL refuses functions decides through EVALSHA", async () => {
  await redis.call("ACL", "SETUSER", "nofunctions", "on", ">pw", "~*", "+@all", "-function", "-fcall", "-fcall_ro");
  const url = server.url.replace("redis://", "redis://nofunctions:pw@");
  const limited = createRedisClient({ url, cluster: false, timeoutMs: 2000, autoPipelining: false });
  try {
    const limiter = createLimiter({ redis: limited, prefix: "acl:", timeoutMs: 2000 });
    const rule = limiterRule({ limit: 3 });
    await redis.call("FUNCTION", "FLUSH");
    const sources: string[] = [];
    for (let i = 0; i < 3; i++)
      sources.push(
        (await limiter.decide([rule], { tenantId: "t", keyId: "k" }, { nowMs: 1_700_000_000_000 + i })).results[0]!
          .source,
      );
    expect(sources).toEqual(["redis", "redis", "redis"]);
    expect(await redis.call("FUNCTION", "LIST", "LIBRARYNAME", "sluice_*")).toHaveLength(0);
  } finally {
    limited.disconnect();
  }
});

it.each(FLUSHES)(
  "decisions racing repeated %s FLUSHes never fail (none answered by the fail mode)",
  async (...flush) => {
    const errors: string[] = [];
    // A generous deadline: what may fail here is a lost script, not a slow machine.
    const limiter = createLimiter({
      redis,
      prefix: "reload:",
      timeoutMs: 5000,
      onUnavailable: (error) => errors.push(error.message),
    });
    const rule = limiterRule({ name: "race", failMode: "closed", limit: 1_000_000 });
    const flusher = createRedisClient({ url: server.url, cluster: false, timeoutMs: 2000, autoPipelining: false });
    let running = true;
    let flushes = 0;
    const flushing = (async () => {
      while (running) {
        await flusher.call(...flush);
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
    console.info(
      `${flush[0]} race: ${flushes} flushes, ${sources.length} decisions, errors: ${JSON.stringify(errors)}`,
    );
    expect(sources.filter((s) => s !== "redis")).toEqual([]);
  },
);

it("over maxmemory a refusal is still Redis's (FCALL refused as OOM goes as a script), an admission falls into the fail mode", async () => {
  const limiter = createLimiter({ redis, prefix: "oom:", timeoutMs: 2000 });
  const rule = limiterRule({ limit: 1, failMode: "open" });
  const subject = { tenantId: "t", keyId: "k" };
  expect((await limiter.decide([rule], subject, { nowMs: 1_700_000_000_000 })).allowed).toBe(true);
  await redis.config("SET", "maxmemory", "1");
  try {
    const refused = await limiter.decide([rule], subject, { nowMs: 1_700_000_000_001 });
    expect(refused.results[0]).toMatchObject({ source: "redis", allowed: false });
    const other = await limiter.decide([rule], { tenantId: "t", keyId: "fresh" }, { nowMs: 1_700_000_000_001 });
    expect(other.results[0]!.source).toBe("fail_open");
  } finally {
    await redis.config("SET", "maxmemory", "0");
  }
});
