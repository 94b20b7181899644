import { describe, expect, it } from "vitest";
import { rssMiB, rssTrend } from "./rss";

describe("rssTrend", () => {
  it("compares the mean of the first and last ten samples", () => {
    const samples = [...Array<number>(10).fill(100), ...Array<number>(40).fill(105), ...Array<number>(10).fill(110)];
    expect(rssTrend(samples)).toMatchObject({ firstMiB: 100, lastMiB: 110, growthPct: 10 });
  });

  it("uses at most half the samples on each side, so a short run's edges never overlap", () => {
    expect(rssTrend([100, 100, 100, 90, 90, 90])).toMatchObject({ firstMiB: 100, lastMiB: 90, growthPct: -10 });
    expect(rssTrend([100, 120, 200])).toMatchObject({ firstMiB: 100, lastMiB: 200, growthPct: 100 });
  });

  it("reads the floors of a sawtooth: the lowest sample of the first and last thirds", () => {
    const sawtooth = [200, 250, 300, 210, 260, 310, 215, 265, 315];
    expect(rssTrend(sawtooth)).toMatchObject({ floorFirstMiB: 200, floorLastMiB: 215 });
  });

  it("refuses fewer than two samples", () => {
    expect(() => rssTrend([100])).toThrow(/two samples/);
  });
});

describe("rssMiB", () => {
  it("reads this process's resident memory", async () => {
    const mib = await rssMiB(process.pid);
    expect(mib).toBeGreaterThan(process.memoryUsage().heapUsed / 2 ** 20 / 2);
  });
});
