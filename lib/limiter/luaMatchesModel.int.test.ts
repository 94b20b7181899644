/**
 * The Lua scripts agree with the TypeScript reference models, field by field, on seeded random
 * request sequences with explicit time; alone and several rules in one decision (all-or-nothing);
 * with penalties (blockMs) too, for every algorithm, shadow rules and peeks included; concurrency
 * rules with their releases and expiries (release.lua against algorithms/concurrency.ts).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { releaseLease, type ConcurrencyState } from "./algorithms/concurrency";
import { modelDecide } from "./algorithms/modelDecide";
import { createLimiter } from "./decide";
import { ALGORITHMS, type Lease, type LimiterRule } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("model");
const limiter = createLimiter({ redis, prefix, timeoutMs: 2000 });
const T0 = 1_700_000_000_000;
let run = 0;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const ruleArb = fc.record({
  algorithm: fc.constantFrom(...ALGORITHMS),
  limit: fc.integer({ min: 1, max: 30 }),
  windowMs: fc.integer({ min: 1000, max: 20_000 }),
  burstExtra: fc.integer({ min: 0, max: 10 }),
  cost: fc.integer({ min: 0, max: 4 }),
  shadow: fc.boolean(),
});
const stepsArb = fc.array(fc.integer({ min: 0, max: 2500 }), { minLength: 1, maxLength: 40 });

type RuleSpec = (typeof ruleArb extends fc.Arbitrary<infer T> ? T : never) & { blockMs?: number };
const penaltyArb = fc.record({ blockMs: fc.integer({ min: 1, max: 8000 }) });
const fields = ({
  allowed,
  penalized,
  remaining,
  resetMs,
  retryAfterMs,
  nextMs,
}: {
  allowed: boolean;
  penalized?: boolean;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
  nextMs: number;
}) => ({ allowed, penalized: penalized ?? false, remaining, resetMs, retryAfterMs, nextMs });

/** `peekEvery`: every so many steps, a peek (never charges, never starts a penalty) is compared first. */
async function agree(ruleSpecs: RuleSpec[], gaps: number[], peekEvery = 0) {
  const tenant = `m${run++}`;
  const rules = ruleSpecs.map((s, i) =>
    limiterRule({
      name: `r${i}`,
      algorithm: s.algorithm,
      limit: s.limit,
      windowMs: s.windowMs,
      burst: s.limit + s.burstExtra,
      cost: s.cost,
      blockMs: s.blockMs ?? 0,
      mode: s.shadow && i > 0 ? "shadow" : "enforce",
    }),
  );
  const states = new Map<string, unknown>();
  let now = T0;
  for (const [step, gap] of gaps.entries()) {
    now += gap;
    if (peekEvery > 0 && step % peekEvery === 0) {
      const peeked = await limiter.peek(rules, { tenantId: tenant, keyId: "k" }, { nowMs: now });
      expect(peeked.results.map(fields)).toEqual(modelDecide(states, rules, now, false));
    }
    const actual = await limiter.decide(rules, { tenantId: tenant, keyId: "k" }, { nowMs: now });
    const expected = modelDecide(states, rules, now);
    expect(actual.results.map(fields)).toEqual(expected);
  }
}

describe("Lua agrees with the reference model", () => {
  it.each(ALGORITHMS)("%s alone, on seeded random sequences", async (algorithm) => {
    await fc.assert(
      fc.asyncProperty(ruleArb, stepsArb, async (spec, gaps) => agree([{ ...spec, algorithm, shadow: false }], gaps)),
      { seed: 1234, numRuns: 40 },
    );
  });

  it("with counts beyond the packed integer state (text form) and back, across windows", async () => {
    const big = (algorithm: (typeof ALGORITHMS)[number], cost: number) => ({
      algorithm,
      limit: 3_000_000,
      windowMs: 2000,
      burstExtra: 0,
      cost,
      shadow: false,
    });
    const gaps = [0, 10, 700, 900, 1500, 300, 2100, 50, 4000, 10];
    for (const algorithm of ["fixed_window", "sliding_window"] as const) {
      await agree([big(algorithm, 700_000)], gaps); // above 2^21 / 2^10: stored as text
      await agree([big(algorithm, 1000)], gaps); // sliding_window crosses 2^10 within the sequence
      await agree([{ ...big(algorithm, 3), limit: 10 }], gaps); // packed throughout
    }
  });

  it("token_bucket and gcra: packed state (interval denominator up to 2^11), text beyond it, and both across an edit", async () => {
    const gaps = [0, 0, 1, 0, 333, 1, 2, 1000, 0, 0, 0, 7, 5000, 0, 1];
    for (const algorithm of ["token_bucket", "gcra"] as const) {
      const spec = (limit: number, windowMs: number) => ({
        algorithm,
        limit,
        windowMs,
        burstExtra: 2,
        cost: 1,
        shadow: false,
      });
      await agree([spec(3, 1000)], gaps); // T = 1000/3 ms: packed, fraction in thirds
      await agree([spec(2047, 1000)], gaps); // q = 2047: packed
      await agree([spec(3001, 1000)], gaps); // q = 3001 > 2^11: text
      await agree([{ ...spec(7, 1000), cost: 3 }], gaps);
    }
  });

  it("token_bucket and gcra: an edit that changes the interval's denominator reads the old state within 1 ms", async () => {
    for (const algorithm of ["token_bucket", "gcra"] as const) {
      const subject = { tenantId: `m${run++}`, keyId: "k" };
      const states = new Map<string, unknown>();
      const before = limiterRule({ name: "r0", algorithm, limit: 7, windowMs: 1000, burst: 9 });
      const after = limiterRule({ name: "r0", algorithm, limit: 3, windowMs: 1000, burst: 4 });
      let now = T0;
      for (const [rule, gap] of [
        [before, 0],
        [before, 1],
        [before, 0],
        [after, 2],
        [after, 0],
        [after, 300],
        [after, 0],
      ] as const) {
        now += gap;
        const actual = await limiter.decide([rule], subject, { nowMs: now });
        const { allowed, remaining, resetMs, retryAfterMs, nextMs } = actual.results[0]!;
        expect({ allowed, penalized: false, remaining, resetMs, retryAfterMs, nextMs }).toEqual(
          modelDecide(states, [rule], now)[0],
        );
      }
    }
  });

  it("with one to four rules of mixed algorithms and modes in one decision", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ruleArb, { minLength: 1, maxLength: 4 }), stepsArb, (specs, gaps) =>
        agree(specs, gaps),
      ),
      { seed: 99, numRuns: 60 },
    );
  });

  it.each(ALGORITHMS)("%s with a penalty, on seeded random sequences (peeks between)", async (algorithm) => {
    await fc.assert(
      fc.asyncProperty(ruleArb, penaltyArb, stepsArb, async (spec, { blockMs }, gaps) =>
        agree([{ ...spec, algorithm, shadow: false, blockMs }], gaps, 3),
      ),
      { seed: 4321, numRuns: 30 },
    );
  });

  it("with penalties on some of one to four rules of mixed algorithms and modes in one decision", async () => {
    const withMaybePenalty = fc
      .tuple(ruleArb, fc.option(penaltyArb))
      .map(([spec, penalty]) => ({ ...spec, blockMs: penalty?.blockMs ?? 0 }));
    await fc.assert(
      fc.asyncProperty(fc.array(withMaybePenalty, { minLength: 1, maxLength: 4 }), stepsArb, (specs, gaps) =>
        agree(specs, gaps, 4),
      ),
      { seed: 77, numRuns: 60 },
    );
  });
});

/** A step: a request after `gap` ms, or the release of the `pick`-th lease still held. */
const stepArb = fc.oneof(fc.record({ gap: fc.integer({ min: 0, max: 3000 }) }), fc.record({ release: fc.nat() }));

async function agreeWithLeases(rules: LimiterRule[], steps: ({ gap: number } | { release: number })[]) {
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

const concurrencyRule = (name: string, limit: number, windowMs: number, mode: "enforce" | "shadow" = "enforce") =>
  limiterRule({ name, algorithm: "concurrency", limit, windowMs, mode });

describe("concurrency: Lua agrees with the model", () => {
  it("alone: takes, releases and expiries on seeded random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1000, max: 8000 }),
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        (limit, windowMs, steps) => agreeWithLeases([concurrencyRule("cc", limit, windowMs)], steps),
      ),
      { seed: 1717, numRuns: 40 },
    );
  });

  it("beside a rate rule and a shadow concurrency rule: a refused request takes no slot", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        (limit, rate, steps) =>
          agreeWithLeases(
            [
              concurrencyRule("cc", limit, 4000),
              limiterRule({ name: "fw", algorithm: "fixed_window", limit: rate, windowMs: 5000 }),
              concurrencyRule("sh", 1, 2000, "shadow"),
            ],
            steps,
          ),
      ),
      { seed: 2929, numRuns: 40 },
    );
  });
});
