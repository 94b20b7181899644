/**
 * Concurrency rules on Redis: decide.lua's slots and release.lua agree with the reference model
 * (algorithms/concurrency.ts) on seeded random sequences of admissions, releases and expiries, alone
 * and beside rate rules in one all-or-nothing decision; the key layout and its TTL.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { releaseLease, type ConcurrencyState } from "./algorithms/concurrency";
import { modelDecide } from "./algorithms/modelDecide";
import { createLimiter } from "./decide";
import type { Lease, LimiterRule } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("conc");
const limiter = createLimiter({ redis, prefix, timeoutMs: 2000 });
const T0 = 1_700_000_000_000;
let run = 0;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const fields = ({ allowed, penalized, remaining, resetMs, retryAfterMs, nextMs }: { allowed: boolean; penalized?: boolean; remaining: number; resetMs: number; retryAfterMs: number; nextMs: number }) =>
  ({ allowed, penalized: penalized ?? false, remaining, resetMs, retryAfterMs, nextMs });

/** A step: a request after `gap` ms, or the release of the `pick`-th lease still held. */
const stepArb = fc.oneof(fc.record({ gap: fc.integer({ min: 0, max: 3000 }) }), fc.record({ release: fc.nat() }));

async function agree(rules: LimiterRule[], steps: ({ gap: number } | { release: number })[]) {
  const subject = { tenantId: `c${run++}`, keyId: "k" };
  const states = new Map<string, unknown>();
  const held: Lease[] = [];
  let now = T0;
  for (const step of steps) {
    if ("release" in step) {
      if (held.length === 0) continue;
      const lease = held.splice(step.release % held.length, 1)[0]!;
      const released = await limiter.release(lease, { nowMs: now });
      let expected = 0;
      for (const rule of lease.rules) {
        const out = releaseLease(states.get(rule.ref) as ConcurrencyState | undefined, lease.id, now);
        states.set(rule.ref, out.state);
        if (out.released) expected++;
      }
      expect(released).toBe(expected);
      continue;
    }
    now += step.gap;
    const peeked = await limiter.peek(rules, subject, { nowMs: now });
    expect(peeked.results.map(fields)).toEqual(modelDecide(states, rules, now, false));
    const actual = await limiter.decide(rules, subject, { nowMs: now });
    expect(actual.results.map(fields)).toEqual(modelDecide(states, rules, now, true, actual.lease?.id ?? "none"));
    const admittedUnderConcurrency = actual.allowed && rules.some((r) => r.algorithm === "concurrency");
    expect(actual.lease !== undefined).toBe(admittedUnderConcurrency);
    if (actual.lease) held.push(actual.lease);
  }
}

const concurrencyRule = (name: string, limit: number, windowMs: number, mode: "enforce" | "shadow" = "enforce") => limiterRule({ name, algorithm: "concurrency", limit, windowMs, mode });

describe("concurrency: Lua agrees with the model", () => {
  it("alone: takes, releases and expiries on seeded random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1000, max: 8000 }), fc.array(stepArb, { minLength: 1, maxLength: 40 }), (limit, windowMs, steps) =>
        agree([concurrencyRule("cc", limit, windowMs)], steps),
      ),
      { seed: 1717, numRuns: 40 },
    );
  });

  it("beside a rate rule and a shadow concurrency rule: a refused request takes no slot", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 6 }), fc.array(stepArb, { minLength: 1, maxLength: 40 }), (limit, rate, steps) =>
        agree([concurrencyRule("cc", limit, 4000), limiterRule({ name: "fw", algorithm: "fixed_window", limit: rate, windowMs: 5000 }), concurrencyRule("sh", 1, 2000, "shadow")], steps),
      ),
      { seed: 2929, numRuns: 40 },
    );
  });
});

describe("concurrency: keys", () => {
  it("one sorted set per rule and subject, hash-tagged, member = lease id, score = expiry, TTL = longest lease", async () => {
    const tenantId = `c${run++}`;
    const rule = concurrencyRule("cc", 2, 30_000);
    const first = await limiter.decide([rule], { tenantId, keyId: "k" });
    expect(first.lease!.keys).toEqual([`${prefix}{${tenantId}}cccKk`]);
    const [member, score] = await redis.zrange(first.lease!.keys[0]!, 0, -1, "WITHSCORES");
    expect(member).toBe(first.lease!.id);
    expect(Number(score)).toBe(first.nowMs + 30_000);
    const ttl = await redis.pttl(first.lease!.keys[0]!);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(await limiter.release(first.lease!)).toBe(1);
    expect(await limiter.release(first.lease!)).toBe(0);
    expect(await redis.exists(first.lease!.keys[0]!)).toBe(0);
  });
});
