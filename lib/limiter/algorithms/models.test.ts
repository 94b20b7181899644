/**
 * Reference models, table-driven and property-based with an injected clock (time is an argument).
 * Each test is named by the invariant it checks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALGORITHMS, BURST_ALGORITHMS, type Algorithm, type LimitParams } from "../types";
import type { AlgorithmModel, Evaluation } from "./model";
import { ALGORITHM_DEFS } from "./registry";

const T0 = 1_700_000_000_000; // aligned to 1 s, 60 s and 1 h windows

function run(algorithm: Algorithm, params: Omit<LimitParams, "algorithm">, times: number[], cost = 1) {
  const model = ALGORITHM_DEFS[algorithm].model;
  let state: unknown;
  return times.map((now) => {
    const e = model.evaluate(state, { algorithm, ...params }, now, cost);
    if (e.allowed && e.next) state = e.next.state;
    return e;
  });
}

const admitted = (evaluations: { allowed: boolean }[]) => evaluations.filter((e) => e.allowed).length;

describe("every algorithm", () => {
  it.each(ALGORITHMS)("%s admits exactly `limit` back-to-back requests, then refuses", (algorithm) => {
    const out = run(algorithm, { limit: 5, windowMs: 60_000, burst: 5 }, Array(8).fill(T0 + 1));
    expect(out.map((e) => e.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(out.map((e) => e.after.remaining).slice(0, 5)).toEqual([4, 3, 2, 1, 0]);
  });

  it.each(ALGORITHMS)("%s refuses a cost above its capacity with retry -1 (never)", (algorithm) => {
    const [e] = run(algorithm, { limit: 5, windowMs: 60_000, burst: 5 }, [T0], 6);
    expect(e!.allowed).toBe(false);
    expect(e!.retryAfterMs).toBe(-1);
  });

  it.each(ALGORITHMS)("%s: a zero-cost request is always allowed and changes nothing", (algorithm) => {
    const model = ALGORITHM_DEFS[algorithm].model;
    const e = model.evaluate(undefined, { algorithm, limit: 1, windowMs: 1000, burst: 1 }, T0, 0);
    expect(e.allowed).toBe(true);
    expect(e.next).toBeNull();
  });

  const paramsArb = fc.record({
    limit: fc.integer({ min: 1, max: 50 }),
    windowMs: fc.integer({ min: 1000, max: 120_000 }),
    burstExtra: fc.integer({ min: 0, max: 20 }),
  });
  const traceArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 4 })), {
    minLength: 1,
    maxLength: 60,
  });

  type Step = (e: Evaluation<unknown>, stateBefore: unknown, stateAfter: unknown, now: number, cost: number) => void;

  /** Walks random traces through the model, calling `step` after each decision. */
  function everyStep(
    algorithm: Algorithm,
    seed: number,
    step: (params: LimitParams, model: AlgorithmModel<unknown>) => Step,
  ) {
    fc.assert(
      fc.property(paramsArb, traceArb, ({ limit, windowMs, burstExtra }, trace) => {
        const params = { algorithm, limit, windowMs, burst: limit + burstExtra };
        const model = ALGORITHM_DEFS[algorithm].model;
        const check = step(params, model);
        let state: unknown;
        let now = T0;
        for (const [gap, cost] of trace) {
          now += gap;
          const e = model.evaluate(state, params, now, cost);
          const before = state;
          if (e.allowed && e.next) state = e.next.state;
          check(e, before, state, now, cost);
        }
      }),
      { seed, numRuns: 150 },
    );
  }

  it.each(ALGORITHMS)("%s: retryAfterMs is exact (passes at now+retry, not at now+retry-1)", (algorithm) => {
    everyStep(algorithm, 42, (params, model) => (e, before, _after, now, cost) => {
      if (e.allowed || e.retryAfterMs < 0) return;
      expect(e.retryAfterMs).toBeGreaterThan(0);
      expect(model.evaluate(before, params, now + e.retryAfterMs, cost).allowed).toBe(true);
      expect(model.evaluate(before, params, now + e.retryAfterMs - 1, cost).allowed).toBe(false);
    });
  });

  it.each(ALGORITHMS)("%s: after resetMs the rule is whole again", (algorithm) => {
    everyStep(algorithm, 7, (params, model) => (e, _before, after, now) => {
      const capacity = BURST_ALGORITHMS.includes(algorithm) ? params.burst : params.limit;
      const view = e.allowed ? e.after : e.before;
      expect(model.evaluate(after, params, now + view.resetMs, 0).before.remaining).toBe(capacity);
    });
  });
});

describe("fixed_window", () => {
  it("windows are aligned to the epoch: the count restarts at each multiple of windowMs", () => {
    const out = run("fixed_window", { limit: 2, windowMs: 1000, burst: 2 }, [T0 + 998, T0 + 999, T0 + 999, T0 + 1000]);
    expect(out.map((e) => e.allowed)).toEqual([true, true, false, true]);
    expect(out[2]!.retryAfterMs).toBe(1);
  });

  it("admits up to 2 x limit across a boundary", () => {
    const times = [...Array(10).fill(T0 + 999), ...Array(10).fill(T0 + 1000)];
    expect(admitted(run("fixed_window", { limit: 10, windowMs: 1000, burst: 10 }, times))).toBe(20);
  });
});

describe("sliding_window", () => {
  it("weights the previous window by the part of it still inside the sliding window", () => {
    // 10 in the previous window; 25% into this one, 75% of them still weigh: 7.5 -> 2 more allowed.
    const times = [...Array(10).fill(T0 + 500), ...Array(4).fill(T0 + 1250)];
    const out = run("sliding_window", { limit: 10, windowMs: 1000, burst: 10 }, times);
    expect(out.slice(10).map((e) => e.allowed)).toEqual([true, true, false, false]);
  });

  it("smooths the boundary burst: never 2 x limit across a boundary", () => {
    const times = [...Array(10).fill(T0 + 999), ...Array(10).fill(T0 + 1000)];
    expect(admitted(run("sliding_window", { limit: 10, windowMs: 1000, burst: 10 }, times))).toBe(10);
  });
});

describe("sliding_log", () => {
  it("never admits more than limit in any window-length span", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 200 }), (gaps) => {
        let now = T0;
        const times = gaps.map((g) => (now += g));
        const out = run("sliding_log", { limit: 7, windowMs: 1000, burst: 7 }, times);
        const admittedAt = times.filter((_, i) => out[i]!.allowed);
        for (const start of admittedAt) {
          expect(admittedAt.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(7);
        }
      }),
      { seed: 3, numRuns: 100 },
    );
  });
});

describe("token_bucket", () => {
  it("admits a burst of `burst`, then `limit` per window at the refill rate", () => {
    // 10 per second refill, burst 20.
    const params = { limit: 10, windowMs: 1000, burst: 20 };
    const burst = run("token_bucket", params, Array(25).fill(T0));
    expect(admitted(burst)).toBe(20);
    const model = ALGORITHM_DEFS.token_bucket.model;
    let state = burst.filter((e) => e.allowed).at(-1)!.next!.state;
    let count = 0;
    for (let t = T0 + 1; t <= T0 + 1000; t += 1) {
      const e = model.evaluate(state, { algorithm: "token_bucket", ...params }, t, 1);
      if (e.allowed) {
        count++;
        state = e.next!.state;
      }
    }
    expect(count).toBe(10);
  });

  it("refills fractionally: half a window gives back half the units", () => {
    const out = run("token_bucket", { limit: 10, windowMs: 1000, burst: 10 }, [...Array(10).fill(T0), T0 + 500]);
    expect(out[10]!.before.remaining).toBe(5);
  });
});

describe("gcra", () => {
  it("admits a burst of `burst`, then one request per emission interval", () => {
    const params = { limit: 10, windowMs: 1000, burst: 5 };
    const times = [...Array(6).fill(T0), T0 + 99, T0 + 100, T0 + 150, T0 + 200];
    const out = run("gcra", params, times);
    expect(out.map((e) => e.allowed)).toEqual([true, true, true, true, true, false, false, true, false, true]);
  });
});
