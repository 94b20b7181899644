/**
 * Count by response (rule field chargeOn) in Redis: a held decision checks a chargeOn rule without
 * consuming it while the request's other rules consume as usual (one atomic call), refuses when
 * no quota is left (starting the penalty), and `charge` consumes it afterwards, bypassing the
 * refusal cache both ways.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createLimiter } from "./decide";
import { RefusalCache } from "./refusalCache";

const redis = plainRedis();
const prefix = uniquePrefix("chargeon");
const refusals = new RefusalCache();
const limiter = createLimiter({ redis, prefix, timeoutMs: 2000, refusals });
const T0 = 1_800_000_000_000;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const remaining = (d: { results: { rule: { name: string }; remaining: number }[] }) =>
  Object.fromEntries(d.results.map((r) => [r.rule.name, r.remaining]));

describe("a rule counted by response", () => {
  it("is checked without consuming at admission, the other rules consume; charge consumes it", async () => {
    const plain = limiterRule({ name: "plain", limit: 10 });
    const stuffing = limiterRule({ name: "stuffing", limit: 2, chargeOn: ["4xx"] });
    const subject = { tenantId: "co1", keyId: "k" };
    for (let i = 0; i < 3; i++)
      expect((await limiter.decide([plain, stuffing], subject, { nowMs: T0 + i, hold: true })).allowed).toBe(true);
    expect(remaining(await limiter.peek([plain, stuffing], subject, { nowMs: T0 + 3 }))).toEqual({
      plain: 7,
      stuffing: 2,
    });

    expect((await limiter.charge([stuffing], subject, { nowMs: T0 + 4 })).allowed).toBe(true);
    expect((await limiter.charge([stuffing], subject, { nowMs: T0 + 5 })).allowed).toBe(true);
    // No quota left: the next request is refused before reaching anything, and consumes nothing.
    const refused = await limiter.decide([plain, stuffing], subject, { nowMs: T0 + 6, hold: true });
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.results.map((r) => r.allowed)).toEqual([true, false]);
    // A charge that finds no quota left (requests in flight) consumes nothing and never throws.
    expect((await limiter.charge([stuffing], subject, { nowMs: T0 + 7 })).allowed).toBe(false);
    expect(remaining(await limiter.peek([plain, stuffing], subject, { nowMs: T0 + 8 }))).toEqual({
      plain: 7,
      stuffing: 0,
    });
  });

  it("starts its penalty when it refuses at admission, as any refusal would", async () => {
    const stuffing = limiterRule({ name: "pen", limit: 1, windowMs: 1000, blockMs: 60_000, chargeOn: ["4xx"] });
    const subject = { tenantId: "co2", keyId: "k" };
    await limiter.charge([stuffing], subject, { nowMs: T0 });
    expect(await limiter.decide([stuffing], subject, { nowMs: T0 + 1, hold: true })).toMatchObject({
      allowed: false,
      retryAfterMs: 60_000,
    });
    // The window is long over; the penalty holds.
    const later = await limiter.decide([stuffing], subject, { nowMs: T0 + 30_000, hold: true });
    expect(later.results[0]).toMatchObject({ allowed: false, penalized: true, retryAfterMs: 30_001 });
  });

  it("caches a held refusal for held admissions only; a refused charge is never cached", async () => {
    const stuffing = limiterRule({ name: "cache", limit: 1, chargeOn: ["4xx"] });
    const subject = { tenantId: "co3", keyId: "k" };
    await limiter.charge([stuffing], subject);
    expect((await limiter.charge([stuffing], subject)).allowed).toBe(false);
    expect(refusals.holdsTenant("co3")).toBe(false);
    const held = await limiter.decide([stuffing], subject, { hold: true });
    expect(held.allowed).toBe(false);
    expect(refusals.holdsTenant("co3")).toBe(true);
    expect((await limiter.decide([stuffing], subject, { hold: true })).results[0]!.source).toBe("cache");
    // Not held (forward auth charges at admission): a decision of its own, from Redis.
    expect((await limiter.decide([stuffing], subject)).results[0]!.source).toBe("redis");
  });
});
