import { describe, expect, it } from "vitest";
import { percentileOf } from "../query/upstreamHealthQuery";
import { LATENCY_BOUNDS_MS, latencyBucket, outcomeFields, UpstreamOutcomes } from "./upstreamOutcomes";

describe("upstream outcomes (issue 31, point 4)", () => {
  it("counts a status by class, 502 and 504 apart too, and its latency bucket", () => {
    expect(outcomeFields(200, 3)).toEqual(["2xx", "l0"]);
    expect(outcomeFields(404, 40)).toEqual(["4xx", "l3"]);
    expect(outcomeFields(502, 12)).toEqual(["5xx", "502", "l2"]);
    expect(outcomeFields(504, 2_600)).toEqual(["5xx", "504", "l9"]);
    expect(latencyBucket(60_000)).toBe(LATENCY_BOUNDS_MS.length);
  });

  it("adds up per tenant and minute, within its bound", () => {
    const outcomes = new UpstreamOutcomes(1);
    expect(outcomes.add("T1", 200, 4, 60_000)).toBe(true);
    expect(outcomes.add("T1", 502, 4, 119_999)).toBe(true);
    expect(outcomes.add("T1", 200, 4, 120_000)).toBe(false);
    expect([...outcomes.cells.values()][0]!.fields).toEqual(
      new Map([
        ["2xx", 1],
        ["l0", 2],
        ["5xx", 1],
        ["502", 1],
      ]),
    );
  });

  it("reads percentiles as the upper bound of their bucket", () => {
    const histogram = new Array(LATENCY_BOUNDS_MS.length + 1).fill(0);
    histogram[1] = 50; // ≤ 10 ms
    histogram[4] = 40; // ≤ 100 ms
    histogram[7] = 9; // ≤ 1 s
    histogram[LATENCY_BOUNDS_MS.length] = 1; // slower than the last bound
    expect(percentileOf(histogram, 0.5)).toBe(10);
    expect(percentileOf(histogram, 0.9)).toBe(100);
    expect(percentileOf(histogram, 0.99)).toBe(1_000);
    expect(percentileOf(histogram, 1)).toBeNull();
    expect(percentileOf(new Array(12).fill(0), 0.5)).toBeNull();
  });
});
