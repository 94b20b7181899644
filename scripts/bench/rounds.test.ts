import { describe, expect, it } from "vitest";
import { runRow } from "./reportFixture";
import { median, medianRows, roundsFromEnv } from "./rounds";

describe("median", () => {
  it("takes the middle value, the mean of the two middle ones for an even count, and skips NaN", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 7, Number.NaN])).toBe(7);
    expect(median([Number.NaN])).toBeNaN();
  });
});

describe("medianRows", () => {
  it("gives each case the median of its rounds column by column, in the first round's order", () => {
    const seq = (ops: number, p99Ms: number) => runRow({ concurrency: 1, opsPerSec: ops, p99Ms });
    const rlf = (ops: number) => runRow({ subject: "rate-limiter-flexible", case: "consume", opsPerSec: ops });
    const rows = medianRows([
      [seq(9_000, 0.3), rlf(50_000)],
      [seq(12_000, 0.2), rlf(91_000)],
      [seq(11_000, 0.9), rlf(52_000)],
    ]);
    expect(rows.map((r) => [r.subject, r.concurrency, r.opsPerSec, r.p99Ms])).toEqual([
      ["sluice", 1, 11_000, 0.3],
      ["rate-limiter-flexible", 256, 52_000, 9.25],
    ]);
    expect(rows[0]!.note).toBe("median of 3 rounds (ops/s 9000 to 12000)");
  });

  it("sums errors and fail-mode activations, keeps the highest RSS peak and the case's own note", () => {
    const row = (errors: number, rssPeakMb: number, failModeActivations: number) =>
      runRow({
        subject: "dataplane",
        case: "sluice-echo",
        note: "GET /api/v1/echo",
        errors,
        rssPeakMb,
        failModeActivations,
      });
    const [merged] = medianRows([[row(1, 300, 0)], [row(0, 350, 2)], [row(2, 320, 1)]]);
    expect(merged).toMatchObject({ errors: 3, rssPeakMb: 350, failModeActivations: 3 });
    expect(merged!.note).toBe("GET /api/v1/echo; median of 3 rounds (ops/s 60000 to 60000)");
  });

  it("keeps NaN columns NaN and a case measured once as it was", () => {
    const http = runRow({ subject: "dataplane", case: "ceiling", nodeCpuUsPerOp: Number.NaN });
    const [twice] = medianRows([[http], [http]]);
    expect(twice!.nodeCpuUsPerOp).toBeNaN();
    const once = runRow({ case: "hot-subject" });
    expect(medianRows([[once], []])).toEqual([once]);
  });
});

describe("roundsFromEnv", () => {
  it("defaults to 3 and refuses what is not a whole number of at least 1", () => {
    expect(roundsFromEnv(undefined)).toBe(3);
    expect(roundsFromEnv("5")).toBe(5);
    for (const bad of ["0", "2.5", "x", "-1"]) expect(() => roundsFromEnv(bad)).toThrow(/BENCH_ROUNDS/);
  });
});
