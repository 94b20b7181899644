import { describe, expect, it } from "vitest";
import { customRangeProblem, rangeFromSearch, rangeQuery, searchWithRange } from "./timeRange";

const NOW = Date.parse("2026-11-25T14:00:00Z");
const search = (qs: string) => new URLSearchParams(qs);

describe("the time range in the URL", () => {
  it("reads a preset, and the default for none or an unknown one", () => {
    expect(rangeFromSearch(search("range=6h"))).toEqual({ preset: "6h" });
    expect(rangeFromSearch(search(""))).toEqual({ preset: "5m" });
    expect(rangeFromSearch(search("range=2d"))).toEqual({ preset: "5m" });
  });

  it("reads a custom window as ISO instants or epoch ms; a reversed or over-long one falls back", () => {
    expect(rangeFromSearch(search("from=2026-11-25T12:00:00.000Z&to=2026-11-25T13:30:00.000Z"))).toEqual({
      fromMs: NOW - 2 * 3_600_000,
      toMs: NOW - 1_800_000,
    });
    expect(rangeFromSearch(search(`from=${NOW - 60_000}&to=${NOW}`))).toEqual({ fromMs: NOW - 60_000, toMs: NOW });
    expect(rangeFromSearch(search(`from=${NOW}&to=${NOW - 60_000}`))).toEqual({ preset: "5m" });
    expect(rangeFromSearch(search(`from=${NOW - 25 * 3_600_000}&to=${NOW}`))).toEqual({ preset: "5m" });
    expect(rangeFromSearch(search("from=yesterday&to=now"))).toEqual({ preset: "5m" });
  });

  it("writes it back, keeping other parameters and leaving the default implied", () => {
    expect(searchWithRange(search("rule=per-key&range=1h"), { preset: "15m" }).toString()).toBe(
      "rule=per-key&range=15m",
    );
    expect(searchWithRange(search("range=1h"), { preset: "5m" }).toString()).toBe("");
    const custom = searchWithRange(search("range=1h"), { fromMs: NOW - 3_600_000, toMs: NOW });
    expect(custom.toString()).toBe("from=2026-11-25T13%3A00%3A00.000Z&to=2026-11-25T14%3A00%3A00.000Z");
    expect(rangeFromSearch(custom)).toEqual({ fromMs: NOW - 3_600_000, toMs: NOW });
  });

  it("asks the monitoring API for the preset, or for the window", () => {
    expect(rangeQuery({ preset: "24h" })).toEqual({ range: "24h" });
    expect(rangeQuery({ fromMs: 1, toMs: 2 })).toEqual({ from: 1, to: 2 });
  });

  it.each([
    [NOW - 3_600_000, NOW, null],
    [NOW, NOW - 1, "The end must be after the start."],
    [NOW - 23 * 3_600_000, NOW + 2 * 3_600_000, "The range can be at most 24 hours long."],
    [NOW - 24.5 * 3_600_000, NOW - 3_600_000, "Only the last 24 hours are kept: choose a later start."],
    [Number.NaN, NOW, "Enter both a start and an end."],
  ])("a custom window from %d to %d: %s", (fromMs, toMs, problem) => {
    expect(customRangeProblem(fromMs, toMs, NOW)).toBe(problem);
  });
});
