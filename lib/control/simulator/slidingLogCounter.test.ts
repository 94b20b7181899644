/**
 * The incremental sliding_log counter decides as the reference model (and so as the Lua) does:
 * random sequences of requests of random costs, also with two rules of different windows sharing
 * one counter, checked request by request against lib/limiter/algorithms/slidingLog.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { slidingLog, type SlidingLogState } from "../../limiter/algorithms/slidingLog";
import { SlidingLogCounter } from "./slidingLogCounter";

const T0 = 1_700_000_000_000;

describe("SlidingLogCounter", () => {
  it("admits and refuses exactly as the reference model, on random sequences (two windows may share a counter)", () => {
    const step = fc.record({
      dt: fc.integer({ min: 0, max: 4_000 }),
      cost: fc.integer({ min: 0, max: 4 }),
      wide: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(step, { minLength: 1, maxLength: 120 }), (limit, steps) => {
        const counter = new SlidingLogCounter();
        let state: SlidingLogState | undefined;
        let now = T0;
        for (const { dt, cost, wide } of steps) {
          now += dt;
          const windowMs = wide ? 10_000 : 3_000;
          const model = slidingLog.evaluate(
            state,
            { algorithm: "sliding_log", limit, windowMs, burst: limit },
            now,
            cost,
          );
          expect(counter.admits(now, limit, windowMs, cost)).toBe(model.allowed);
          if (model.allowed) {
            counter.commit(now, windowMs, cost);
            if (model.next) state = model.next.state;
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("stays exact past its compaction of dropped entries (a long run at the limit)", () => {
    const counter = new SlidingLogCounter();
    let admitted = 0;
    // 100 per second for 600 s against 10 per second: exactly 10 of each second's 100 pass (over 4,096 entries dropped).
    for (let i = 0; i < 60_000; i++) {
      const now = T0 + i * 10;
      if (counter.admits(now, 10, 1_000, 1)) {
        counter.commit(now, 1_000, 1);
        admitted++;
      }
    }
    expect(admitted).toBe(6_000);
  });
});
