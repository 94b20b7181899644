/**
 * Penalties (blockMs) in Redis: kept in the subject key (no key of their own, sliding_log included),
 * the key's TTL covers them, an ended one is dropped, deleting the subject key (a counter reset)
 * lifts them, and the refusal cache answers a penalised client until the penalty's end after one
 * Redis trip. Agreement with the reference model is in luaMatchesModel.int.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, keysByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createLimiter } from "./decide";
import { counterKey, penaltyKey } from "./keys";
import { RefusalCache } from "./refusalCache";

const redis = plainRedis();
const prefix = uniquePrefix("penalty");
const limiter = createLimiter({ redis, prefix, timeoutMs: 2000 });
const T0 = 1_800_000_000_000;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

describe("a penalty in Redis", () => {
  it("lives in the subject key, for sliding_log too: the only keys are the counters' own", async () => {
    const log = limiterRule({ name: "log", algorithm: "sliding_log", limit: 1, windowMs: 1000, blockMs: 30_000 });
    const window = limiterRule({ name: "win", algorithm: "sliding_window", limit: 5, windowMs: 1000, blockMs: 30_000 });
    const subject = { tenantId: "pen1", keyId: "k" };
    expect((await limiter.decide([log, window], subject, { nowMs: T0 })).allowed).toBe(true);
    const refused = await limiter.decide([log, window], subject, { nowMs: T0 + 1 });
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 30_000 });
    // Later, the log has room again and the window never refused: only the log's penalty holds.
    const later = await limiter.decide([log, window], subject, { nowMs: T0 + 20_000 });
    expect(later.results.map((r) => [r.allowed, r.penalized ?? false, r.retryAfterMs])).toEqual([
      [false, true, 10_001],
      [true, false, 0],
    ]);
    const keys = new Set(await keysByPrefix(redis, `${prefix}{pen1}`));
    expect(keys).toEqual(new Set([counterKey(prefix, log, subject), penaltyKey(prefix, log, subject)]));
    expect(penaltyKey(prefix, log, subject)).toBe(counterKey(prefix, window, subject));
  });

  it("keeps its key alive until its end, even when the window is far shorter", async () => {
    const rule = limiterRule({ algorithm: "fixed_window", limit: 1, windowMs: 1000, blockMs: 3_600_000 });
    const subject = { tenantId: "pen2", keyId: "k" };
    await limiter.decide([rule], subject, { nowMs: T0 });
    await limiter.decide([rule], subject, { nowMs: T0 + 1 });
    expect(await redis.pttl(counterKey(prefix, rule, subject))).toBeGreaterThan(3_500_000);
  });

  it("is dropped from the subject key once ended, when the key is next written", async () => {
    const rule = limiterRule({ algorithm: "fixed_window", limit: 1, windowMs: 1000, blockMs: 5000 });
    const subject = { tenantId: "pen3", keyId: "k" };
    await limiter.decide([rule], subject, { nowMs: T0 });
    await limiter.decide([rule], subject, { nowMs: T0 + 1 });
    const key = counterKey(prefix, rule, subject);
    expect(await redis.get(key)).toMatch(/(^|,)br=/);
    expect((await limiter.decide([rule], subject, { nowMs: T0 + 6000 })).allowed).toBe(true);
    expect(await redis.get(key)).not.toMatch(/br=/);
  });

  it("is lifted when the subject key is deleted (what a counter reset does)", async () => {
    const rule = limiterRule({ algorithm: "token_bucket", limit: 1, windowMs: 1000, burst: 1, blockMs: 60_000 });
    const subject = { tenantId: "pen4", keyId: "k" };
    await limiter.decide([rule], subject, { nowMs: T0 });
    expect((await limiter.decide([rule], subject, { nowMs: T0 + 1 })).allowed).toBe(false);
    expect((await limiter.decide([rule], subject, { nowMs: T0 + 5000 })).results[0]!.penalized).toBe(true);
    await redis.del(counterKey(prefix, rule, subject));
    expect((await limiter.decide([rule], subject, { nowMs: T0 + 5001 })).allowed).toBe(true);
  });

  it("is answered by the refusal cache until its end after one Redis trip (injected clock), then by Redis again", async () => {
    let now = T0;
    const refusals = new RefusalCache();
    const cached = createLimiter({ redis, prefix, timeoutMs: 2000, timeSource: "app", clock: () => now, refusals });
    const rule = limiterRule({ algorithm: "fixed_window", limit: 1, windowMs: 1000, blockMs: 10_000 });
    const subject = { tenantId: "pen5", keyId: "k" };
    expect((await cached.decide([rule], subject)).allowed).toBe(true);
    now += 1;
    expect(await cached.decide([rule], subject)).toMatchObject({ allowed: false, retryAfterMs: 10_000 });
    now += 7000; // the counter has room again; the penalty holds, and the cache knows it
    const hit = await cached.decide([rule], subject);
    expect(hit).toMatchObject({ allowed: false, retryAfterMs: 3000 });
    expect(hit.results[0]!.source).toBe("cache");
    now += 3000; // the penalty's end
    const after = await cached.decide([rule], subject);
    expect(after.allowed).toBe(true);
    expect(after.results[0]!.source).toBe("redis");
  });
});
