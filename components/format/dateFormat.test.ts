import { describe, expect, it } from "vitest";
import { formatClock, formatDateTime, formatWait, formatWhen, timeTicks, zoneOffsetMs } from "./dateFormat";

const at = (iso: string) => Date.parse(iso);

describe("one date format, fixed times and zones", () => {
  it.each([
    ["2026-11-25T14:05:09Z", "UTC", "25 Nov 2026, 14:05"],
    ["2026-11-25T00:00:00Z", "UTC", "25 Nov 2026, 00:00"],
    ["2026-11-25T23:30:00Z", "Asia/Kolkata", "26 Nov 2026, 05:00"],
    ["2026-07-01T12:00:00Z", "Europe/Berlin", "1 Jul 2026, 14:00"],
  ])("%s in %s reads %s", (iso, zone, text) => {
    expect(formatDateTime(iso, zone)).toBe(text);
    expect(formatDateTime(at(iso), zone)).toBe(text);
  });

  it("adds seconds when asked, and a clock is 24-hour with seconds", () => {
    expect(formatDateTime(at("2026-11-25T14:05:09Z"), "UTC", true)).toBe("25 Nov 2026, 14:05:09");
    expect(formatClock(at("2026-11-25T00:05:09Z"), "UTC")).toBe("00:05:09");
    expect(formatClock(at("2026-11-25T13:05:09Z"), "UTC", false)).toBe("13:05");
  });

  it("formatWhen gives the clock alone for today, the date otherwise", () => {
    const now = at("2026-11-25T18:00:00Z");
    expect(formatWhen(at("2026-11-25T09:15:00Z"), now, "UTC")).toBe("09:15:00");
    expect(formatWhen(at("2026-11-24T23:59:00Z"), now, "UTC")).toBe("24 Nov 2026, 23:59:00");
  });

  it.each([
    [0, "now"],
    [-5, "now"],
    [250, "250 ms"],
    [1500, "1.5 s"],
    [90_000, "1.5 min"],
    [7_200_000, "2 h"],
  ])("a wait of %d ms reads %s", (ms, text) => {
    expect(formatWait(ms)).toBe(text);
  });

  it("knows a zone's offset, half hours and summer time included", () => {
    expect(zoneOffsetMs(at("2026-11-25T12:00:00Z"), "UTC")).toBe(0);
    expect(zoneOffsetMs(at("2026-11-25T12:00:00Z"), "Asia/Kolkata")).toBe(5.5 * 3_600_000);
    expect(zoneOffsetMs(at("2026-07-01T12:00:00Z"), "Europe/Berlin")).toBe(2 * 3_600_000);
  });
});

describe("timeTicks", () => {
  it("24 h ending at an odd minute: ticks on round hours, each new day with its date", () => {
    const ticks = timeTicks(at("2026-11-24T14:07:31Z"), at("2026-11-25T14:07:31Z"), 7, "UTC");
    expect(ticks.map((t) => t.label)).toEqual(["24 Nov 16:00", "20:00", "25 Nov 00:00", "04:00", "08:00", "12:00"]);
    expect(ticks.every((t) => t.t % 3_600_000 === 0)).toBe(true);
  });

  it("aligns hours to the local clock of a half-hour zone", () => {
    const ticks = timeTicks(at("2026-11-24T14:07:31Z"), at("2026-11-25T14:07:31Z"), 7, "Asia/Kolkata");
    expect(ticks.map((t) => t.label)).toEqual(["24 Nov 20:00", "25 Nov 00:00", "04:00", "08:00", "12:00", "16:00"]);
  });

  it("an hour: every 10 minutes, no date (one day)", () => {
    const ticks = timeTicks(at("2026-11-25T13:02:10Z"), at("2026-11-25T14:02:10Z"), 7, "UTC");
    expect(ticks.map((t) => t.label)).toEqual(["13:10", "13:20", "13:30", "13:40", "13:50", "14:00"]);
  });

  it("5 minutes: every minute; under a minute per tick, seconds show", () => {
    expect(timeTicks(at("2026-11-25T13:02:10Z"), at("2026-11-25T13:07:10Z"), 7, "UTC").map((t) => t.label)).toEqual([
      "13:03",
      "13:04",
      "13:05",
      "13:06",
      "13:07",
    ]);
    expect(timeTicks(at("2026-11-25T13:02:10Z"), at("2026-11-25T13:03:10Z"), 6, "UTC").map((t) => t.label)).toEqual([
      "13:02:15",
      "13:02:30",
      "13:02:45",
      "13:03:00",
    ]);
  });

  it("a short range across midnight carries the date where the day starts", () => {
    const ticks = timeTicks(at("2026-11-24T23:58:00Z"), at("2026-11-25T00:03:00Z"), 7, "UTC");
    expect(ticks.map((t) => t.label)).toEqual(["24 Nov 23:58", "23:59", "25 Nov 00:00", "00:01", "00:02", "00:03"]);
  });

  it("stays on round local hours across the end of summer time (25 Oct 2026 in Berlin: 03:00 is 02:00 again)", () => {
    const ticks = timeTicks(at("2026-10-24T22:00:00Z"), at("2026-10-25T22:00:00Z"), 7, "Europe/Berlin");
    expect(ticks.map((t) => t.label)).toEqual(["00:00", "04:00", "08:00", "12:00", "16:00", "20:00"]);
    // 00:00 CEST to 04:00 CET is five hours.
    expect(ticks[1]!.t - ticks[0]!.t).toBe(5 * 3_600_000);
  });

  it("nothing for an empty or reversed range", () => {
    expect(timeTicks(5, 5)).toEqual([]);
    expect(timeTicks(10, 5)).toEqual([]);
  });
});
