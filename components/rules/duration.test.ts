import { describe, expect, it } from "vitest";
import { formatDuration, formatLimit, parseDuration, perDuration } from "./duration";

describe("durations as typed", () => {
  it.each([
    ["1 min", 60_000],
    ["1min", 60_000],
    ["30 s", 30_000],
    ["1.5 h", 5_400_000],
    ["2 days", 172_800_000],
    ["500 ms", 500],
    ["  10 Minutes ", 600_000],
    [".5 s", 500],
  ])("%s is %d ms", (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(["", "60000", "1 fortnight", "min", "1,5 h", "-1 s", "1 min 30 s"])("%j is not a duration", (text) =>
    expect(parseDuration(text)).toBeNull(),
  );

  it("shows a value back in the largest exact unit, and reads it back the same", () => {
    for (const ms of [1_000, 60_000, 90_000, 3_600_000, 86_400_000, 1_500, 31_622_400_000])
      expect(parseDuration(formatDuration(ms))).toBe(ms);
    expect(formatDuration(60_000)).toBe("1 min");
    expect(formatDuration(90_000)).toBe("90 s");
    expect(formatDuration(1_500)).toBe("1500 ms");
  });

  it("says a rate per window in words", () => {
    expect(perDuration(60_000)).toBe("per min");
    expect(perDuration(30_000)).toBe("per 30 s");
  });

  it("shows a limit one way everywhere: grouped digits and the window in words (issue 31)", () => {
    expect(formatLimit(20_000, 60_000)).toBe("20,000 per min");
    expect(formatLimit(10, 1_000)).toBe("10 per s");
    expect(formatLimit(5, 30_000)).toBe("5 per 30 s");
  });
});
