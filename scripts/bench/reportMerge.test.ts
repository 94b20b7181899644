import { describe, expect, it } from "vitest";
import { benchReport, runRow } from "./reportFixture";
import { mergeReports, partOf } from "./reportMerge";
import type { AccuracyReport } from "./types";

const accuracy = { slidingWindowVsLog: { differingPct: 0.5 } } as AccuracyReport;

describe("mergeReports", () => {
  it("replaces only the rows of the parts that ran and keeps the others", () => {
    const previous = benchReport();
    const fresh = benchReport({
      generatedAt: "2026-11-24T08:00:00.000Z",
      runs: [
        runRow({ subject: "sluice-http", case: "echo-protected", concurrency: 100, opsPerSec: 999, part: "http" }),
      ],
      memory: [],
      partsRunAt: { http: "2026-11-24T08:00:00.000Z" },
    });
    const merged = mergeReports(previous, fresh, ["http"]);
    expect(merged.runs.map((r) => [r.subject, r.opsPerSec])).toEqual([
      ["sluice", 60_000],
      ["sluice-http", 999],
    ]);
    expect(merged.memory).toEqual(previous.memory);
    expect(merged.partsRunAt).toEqual({ ...previous.partsRunAt, http: "2026-11-24T08:00:00.000Z" });
    expect(merged.generatedAt).toBe("2026-11-24T08:00:00.000Z");
  });

  it("keeps the previous accuracy section unless the accuracy part ran, and then takes the new one", () => {
    const previous = benchReport({ accuracy });
    const newer = { slidingWindowVsLog: { differingPct: 0.25 } } as AccuracyReport;
    expect(mergeReports(previous, benchReport({ runs: [] }), ["limiter"]).accuracy).toBe(accuracy);
    expect(mergeReports(previous, benchReport({ accuracy: newer }), ["accuracy"]).accuracy).toBe(newer);
  });

  it("replaces the memory rows when the memory part ran, even with none", () => {
    expect(mergeReports(benchReport(), benchReport({ memory: [] }), ["memory"]).memory).toEqual([]);
  });

  it("reads the part of rows written before rows carried one from their subject", () => {
    expect(partOf(runRow())).toBe("limiter");
    expect(partOf(runRow({ subject: "sluice-http" }))).toBe("http");
    expect(partOf(runRow({ subject: "sluice-simulator" }))).toBe("simulator");
  });
});
