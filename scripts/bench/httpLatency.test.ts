import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { LatencySamples } from "./httpLatency";

interface HdrHistogram {
  recordValue(v: number): void;
  getValueAtPercentile(p: number): number;
  destroy(): void;
}
// autocannon's own latency histogram (whole ms), to check the rank and the correction against.
const { getHistograms } = createRequire(import.meta.url)("autocannon/lib/histUtil") as {
  getHistograms(): { latencies: HdrHistogram };
};

/** A deterministic spread of latencies, 0.2 to 30 ms, with a long tail. */
function latencies(n: number): number[] {
  let x = 12345;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const u = x / 2 ** 31;
    return 0.2 + (u < 0.95 ? u * 4 : (u - 0.95) * 600);
  });
}

describe("LatencySamples", () => {
  it("keeps sub-millisecond values: 1.9 ms is not 1 ms", () => {
    const s = new LatencySamples();
    for (const ms of [1.2, 1.9, 1.9, 3.25]) s.record(200, ms);
    expect(s.summary()).toEqual({ p50Ms: 1.9, p99Ms: 3.25 });
    expect(s.percentile(0)).toBe(1.2);
  });

  it("picks the same rank as autocannon's HDR histogram on whole-ms values", () => {
    const whole = latencies(2001).map(Math.floor);
    const s = new LatencySamples();
    const { latencies: hdr } = getHistograms();
    for (const ms of whole) {
      s.record(200, ms);
      hdr.recordValue(ms);
    }
    for (const p of [0.5, 0.9, 0.99, 0.999]) expect(s.percentile(p)).toBe(hdr.getValueAtPercentile(p * 100));
    hdr.destroy();
  });

  it("records only 2xx answers, as autocannon does by default", () => {
    const s = new LatencySamples();
    s.record(429, 0.5);
    s.record(500, 0.5);
    s.record(200, 7);
    expect(s.size).toBe(1);
    expect(s.summary()).toEqual({ p50Ms: 7, p99Ms: 7 });
  });

  it("answers NaN with no sample, and grows past its first buffer", () => {
    const s = new LatencySamples();
    expect(s.summary().p50Ms).toBeNaN();
    for (let i = 0; i < 100_000; i++) s.record(204, i / 1000);
    expect(s.size).toBe(100_000);
    expect(s.percentile(1)).toBe(99.999);
  });
});
