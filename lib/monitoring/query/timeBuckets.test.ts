import { describe, expect, it } from "vitest";
import { pairs, scored } from "./readPlan";
import { bucketIndex, bucketTimes, periodsCovering, periodStartMs, setResolution, timeGrid } from "./timeBuckets";

const MIN = 60_000;
const HOUR = 3_600_000;
/** An injected "now": 2026-01-01T10:20:30.400Z. */
const NOW = Date.UTC(2026, 0, 1, 10, 20, 30, 400);

describe("timeGrid", () => {
  it("aligns the first bucket to the step (UTC epoch), so it may start before fromMs", () => {
    const grid = timeGrid(NOW - 5 * MIN, NOW, 5_000);
    expect(grid.startMs).toBe(Date.UTC(2026, 0, 1, 10, 15, 30));
    expect(grid.source).toBe("second");
    const times = bucketTimes(grid);
    expect(times).toHaveLength(61);
    expect(times.at(-1)).toBe(Date.UTC(2026, 0, 1, 10, 20, 30));
    for (const t of times) expect(t % 5_000).toBe(0);
  });

  it("reads per-minute data for whole-minute steps, per-second data otherwise", () => {
    expect(timeGrid(NOW - HOUR, NOW, MIN).source).toBe("minute");
    expect(timeGrid(NOW - 24 * HOUR, NOW, 5 * MIN).source).toBe("minute");
    expect(timeGrid(NOW - HOUR, NOW, 90_000).source).toBe("second");
  });

  it("the last bucket is the one holding toMs's instant (exclusive end)", () => {
    const grid = timeGrid(0, 10_000, 5_000);
    expect(bucketTimes(grid)).toEqual([0, 5_000]);
    expect(bucketIndex(grid, 0)).toBe(0);
    expect(bucketIndex(grid, 4_999)).toBe(0);
    expect(bucketIndex(grid, 5_000)).toBe(1);
    expect(bucketIndex(grid, 9_999)).toBe(1);
    expect(bucketIndex(grid, 10_000)).toBe(-1);
    expect(bucketIndex(grid, -1)).toBe(-1);
  });
});

describe("periodsCovering and setResolution", () => {
  it("lists every minute or hour overlapping [from, to)", () => {
    expect(periodsCovering("minute", 0, MIN)).toEqual([0]);
    expect(periodsCovering("minute", 59_999, MIN + 1)).toEqual([0, 1]);
    expect(periodsCovering("hour", NOW - 24 * HOUR, NOW)).toHaveLength(25);
    expect(periodsCovering("hour", 2 * HOUR, 3 * HOUR)).toEqual([2]);
  });

  it("ranges up to 1 h read per-minute sets, longer ones per-hour sets", () => {
    expect(setResolution(NOW - HOUR, NOW)).toBe("minute");
    expect(setResolution(NOW - HOUR - 1, NOW)).toBe("hour");
    expect(periodStartMs("minute", 3)).toBe(3 * MIN);
    expect(periodStartMs("hour", 3)).toBe(3 * HOUR);
  });
});

describe("reply parsing (readPlan)", () => {
  it("reads HGETALL as a flat array or as an object, and anything else as empty", () => {
    expect(pairs(["1a", "3", "2r", "4"])).toEqual([
      ["1a", "3"],
      ["2r", "4"],
    ]);
    expect(pairs(["odd"])).toEqual([]);
    expect(pairs({ "1a": 3 })).toEqual([["1a", "3"]]);
    expect(pairs(null)).toEqual([]);
    expect(pairs("text")).toEqual([]);
  });

  it("reads ZRANGE WITHSCORES and skips non-numeric scores", () => {
    expect(scored(["k1", "5", "k2", "x", "k3", "0.25"])).toEqual([
      ["k1", 5],
      ["k3", 0.25],
    ]);
  });
});
