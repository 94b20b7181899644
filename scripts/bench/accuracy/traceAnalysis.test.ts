import { describe, expect, it } from "vitest";
import type { Trace } from "./trace";
import { DEFAULT_TRACE_SPEC } from "./trace";
import { admittedByClass, differences, worstSpan } from "./traceAnalysis";

/** A hand-made trace: (time, client) pairs; clients 0 steady, 1 bursty, 2 abusive. */
function trace(requests: [number, number][]): Trace {
  return {
    spec: DEFAULT_TRACE_SPEC,
    atMs: Float64Array.from(requests.map(([t]) => t)),
    client: Uint32Array.from(requests.map(([, c]) => c)),
    clientClass: Uint8Array.from([0, 1, 2]),
  };
}

describe("worstSpan", () => {
  const t = trace([
    [0, 0],
    [500, 0],
    [999, 0],
    [1000, 0],
    [1001, 1],
    [1500, 0],
    [1999, 0],
  ]);

  it("counts admitted requests less than one window apart, per client", () => {
    const all = Uint8Array.from(t.atMs, () => 1);
    const span = worstSpan(t, all, 0, 1000, 10);
    // At most three of client 0's requests lie within 1000 ms of each other (0 and 1000 are one window apart).
    expect(span).toMatchObject({ admitted: 3, client: 0, clientClass: "steady" });
    expect(span.byClass).toEqual({ steady: 3, bursty: 1, abusive: 0 });
  });

  it("ignores refused requests (bit clear) and reads only its own bit", () => {
    const decisions = Uint8Array.from([0b01, 0b10, 0b01, 0b01, 0b01, 0b10, 0b10]);
    expect(worstSpan(t, decisions, 0, 1000, 10).byClass.steady).toBe(2); // 0, 999, 1000: 0 and 1000 are a window apart
    expect(worstSpan(t, decisions, 1, 1000, 10).byClass.steady).toBe(2); // 500, 1500, 1999: 500 and 1500 are a window apart
  });

  it("throws rather than under-report when a span exceeds its capacity", () => {
    const all = Uint8Array.from(t.atMs, () => 1);
    expect(() => worstSpan(t, all, 0, 1000, 2)).toThrow(/capacity/);
  });
});

describe("differences and admittedByClass", () => {
  it("count disagreeing decisions per class", () => {
    const t = trace([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 2],
    ]);
    const decisions = Uint8Array.from([0b11, 0b01, 0b10, 0b00]);
    expect(differences(t, decisions, 0, 1)).toEqual({
      requests: 4,
      differing: 2,
      byClass: {
        steady: { requests: 1, differing: 0, onlyA: 0 },
        bursty: { requests: 1, differing: 1, onlyA: 1 },
        abusive: { requests: 2, differing: 1, onlyA: 0 },
      },
    });
    expect(admittedByClass(t, decisions, 0)).toEqual({ steady: 1, bursty: 1, abusive: 0 });
  });
});
