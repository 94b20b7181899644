import { describe, expect, it } from "vitest";
import { granularityFor, sumIntoPeriods, usagePeriods } from "./usagePeriods";

const NOW = Date.parse("2026-11-27T12:00:00Z");

describe("usage periods", () => {
  it("are UTC calendar months without a rule: the current and the 12 before, within 400 days", () => {
    const months = usagePeriods(NOW, null);
    expect(months).toHaveLength(13);
    expect(new Date(months[0]!.startMs).toISOString()).toBe("2025-11-01T00:00:00.000Z");
    expect(new Date(months[12]!.endMs).toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(granularityFor(months)).toBe("day");
  });

  it("are a rule's epoch-aligned windows, as many as fit 400 days; hourly rows for windows off the day", () => {
    const monthly = usagePeriods(NOW, 31 * 86_400_000);
    expect(monthly.length).toBe(13);
    expect(monthly.every((p) => p.endMs - p.startMs === 31 * 86_400_000)).toBe(true);
    expect(usagePeriods(NOW, 40 * 86_400_000).length).toBe(10);
    expect(granularityFor(usagePeriods(NOW, 36 * 3_600_000))).toBe("hour");
  });

  it("sum rows into the period they start in", () => {
    const periods = usagePeriods(NOW, 86_400_000, 1);
    const sums = sumIntoPeriods(periods, [
      { start: "2026-11-26T05:00:00.000Z", admitted: 2, refused: 1, units: 4 },
      { start: "2026-11-27T00:00:00.000Z", admitted: 3, refused: 0, units: 3 },
      { start: "2020-01-01T00:00:00.000Z", admitted: 9, refused: 9, units: 9 },
    ]);
    expect(sums.map((p) => [p.admitted, p.refused, p.units])).toEqual([
      [2, 1, 4],
      [3, 0, 3],
    ]);
  });
});
