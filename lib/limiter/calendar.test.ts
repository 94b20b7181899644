import { describe, expect, it } from "vitest";
import { isTimeZone, periodAt, periodBounds, type CalendarPeriod } from "./calendar";

const iso = (ms: number) => new Date(ms).toISOString();
const at = (period: CalendarPeriod, when: string) => {
  const { startMs, endMs } = periodAt(period, Date.parse(when));
  return [iso(startMs), iso(endMs)];
};
const H = 3_600_000;

describe("calendar periods (injected clock)", () => {
  it("months in UTC: Jan 31 rolls into February, a leap February ends after the 29th, December into January", () => {
    const month = { unit: "month", timeZone: "UTC" } as const;
    expect(at(month, "2027-01-31T23:59:59.999Z")).toEqual(["2027-01-01T00:00:00.000Z", "2027-02-01T00:00:00.000Z"]);
    expect(at(month, "2027-02-01T00:00:00.000Z")).toEqual(["2027-02-01T00:00:00.000Z", "2027-03-01T00:00:00.000Z"]);
    expect(at(month, "2028-02-29T12:00:00Z")).toEqual(["2028-02-01T00:00:00.000Z", "2028-03-01T00:00:00.000Z"]);
    expect(at(month, "2026-12-31T23:00:00Z")).toEqual(["2026-12-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"]);
  });

  it("months in a zone start at local midnight (Berlin: 23:00 UTC in winter, 22:00 in summer)", () => {
    const month = { unit: "month", timeZone: "Europe/Berlin" } as const;
    expect(at(month, "2027-01-31T23:30:00Z")).toEqual(["2027-01-31T23:00:00.000Z", "2027-02-28T23:00:00.000Z"]);
    expect(at(month, "2026-03-31T21:59:59Z")).toEqual(["2026-02-28T23:00:00.000Z", "2026-03-31T22:00:00.000Z"]);
  });

  it("days across summer time in Europe/Berlin: 23 hours in March, 25 in October", () => {
    const day = { unit: "day", timeZone: "Europe/Berlin" } as const;
    const spring = periodAt(day, Date.parse("2026-03-29T12:00:00Z"));
    expect(iso(spring.startMs)).toBe("2026-03-28T23:00:00.000Z");
    expect(spring.endMs - spring.startMs).toBe(23 * H);
    const autumn = periodAt(day, Date.parse("2026-10-25T12:00:00Z"));
    expect(iso(autumn.startMs)).toBe("2026-10-24T22:00:00.000Z");
    expect(autumn.endMs - autumn.startMs).toBe(25 * H);
  });

  it("days across summer time in America/New_York", () => {
    const day = { unit: "day", timeZone: "America/New_York" } as const;
    const spring = periodAt(day, Date.parse("2026-03-08T15:00:00Z"));
    expect(iso(spring.startMs)).toBe("2026-03-08T05:00:00.000Z");
    expect(spring.endMs - spring.startMs).toBe(23 * H);
    const autumn = periodAt(day, Date.parse("2026-11-01T15:00:00Z"));
    expect(iso(autumn.startMs)).toBe("2026-11-01T04:00:00.000Z");
    expect(autumn.endMs - autumn.startMs).toBe(25 * H);
    // Late evening local time is still the same local day (UTC already the next).
    expect(at(day, "2026-07-01T03:59:59Z")[0]).toBe("2026-06-30T04:00:00.000Z");
  });

  it("a day whose midnight falls in a summer-time gap starts when the gap ends (America/Santiago)", () => {
    const day = { unit: "day", timeZone: "America/Santiago" } as const;
    const gap = periodAt(day, Date.parse("2026-09-06T15:00:00Z"));
    expect(iso(gap.startMs)).toBe("2026-09-06T04:00:00.000Z"); // 01:00 local (UTC-3); 00:00 never was
    expect(gap.endMs - gap.startMs).toBe(23 * H);
  });

  it("weeks start on Monday, also across the year's end", () => {
    const week = { unit: "week", timeZone: "UTC" } as const;
    // 2026-12-31 is a Thursday.
    expect(at(week, "2026-12-31T10:00:00Z")).toEqual(["2026-12-28T00:00:00.000Z", "2027-01-04T00:00:00.000Z"]);
    expect(at(week, "2027-01-03T23:59:59Z")).toEqual(["2026-12-28T00:00:00.000Z", "2027-01-04T00:00:00.000Z"]);
    expect(at(week, "2027-01-04T00:00:00Z")).toEqual(["2027-01-04T00:00:00.000Z", "2027-01-11T00:00:00.000Z"]);
    // A Sunday belongs to the week of the Monday before it.
    expect(at(week, "2026-11-29T12:00:00Z")[0]).toBe("2026-11-23T00:00:00.000Z");
  });

  it("a week holding a summer-time change lasts 7 days less an hour (Berlin, March)", () => {
    const week = { unit: "week", timeZone: "Europe/Berlin" } as const;
    const w = periodAt(week, Date.parse("2026-03-27T12:00:00Z"));
    expect(iso(w.startMs)).toBe("2026-03-22T23:00:00.000Z");
    expect(w.endMs - w.startMs).toBe(7 * 24 * H - H);
  });

  it("bounds: the previous, current and next periods, ascending and adjacent", () => {
    const month = { unit: "month", timeZone: "America/New_York" } as const;
    const b = periodBounds(month, Date.parse("2027-01-15T00:00:00Z"));
    expect(b.map(iso)).toEqual([
      "2026-12-01T05:00:00.000Z",
      "2027-01-01T05:00:00.000Z",
      "2027-02-01T05:00:00.000Z",
      "2027-03-01T05:00:00.000Z",
    ]);
  });

  it("a month anchored at a billing day (15th) resets on the 15th, across the year's end", () => {
    const month = { unit: "month", timeZone: "UTC", anchorDay: 15 } as const;
    expect(at(month, "2027-01-14T23:59:59.999Z")).toEqual(["2026-12-15T00:00:00.000Z", "2027-01-15T00:00:00.000Z"]);
    expect(at(month, "2027-01-15T00:00:00.000Z")).toEqual(["2027-01-15T00:00:00.000Z", "2027-02-15T00:00:00.000Z"]);
    expect(periodBounds(month, Date.parse("2027-01-20T00:00:00Z")).map(iso)).toEqual([
      "2026-12-15T00:00:00.000Z",
      "2027-01-15T00:00:00.000Z",
      "2027-02-15T00:00:00.000Z",
      "2027-03-15T00:00:00.000Z",
    ]);
  });

  it("an anchor past a month's end starts that month's period on its last day (anchor 31)", () => {
    const month = { unit: "month", timeZone: "UTC", anchorDay: 31 } as const;
    expect(at(month, "2027-02-10T00:00:00Z")).toEqual(["2027-01-31T00:00:00.000Z", "2027-02-28T00:00:00.000Z"]);
    expect(at(month, "2027-02-28T12:00:00Z")).toEqual(["2027-02-28T00:00:00.000Z", "2027-03-31T00:00:00.000Z"]);
    expect(at(month, "2027-03-30T23:59:59Z")).toEqual(["2027-02-28T00:00:00.000Z", "2027-03-31T00:00:00.000Z"]);
    expect(at(month, "2028-02-29T00:00:00Z")).toEqual(["2028-02-29T00:00:00.000Z", "2028-03-31T00:00:00.000Z"]);
    expect(at(month, "2027-04-29T00:00:00Z")).toEqual(["2027-03-31T00:00:00.000Z", "2027-04-30T00:00:00.000Z"]);
    expect(at(month, "2027-04-30T01:00:00Z")).toEqual(["2027-04-30T00:00:00.000Z", "2027-05-31T00:00:00.000Z"]);
  });

  it("an anchored month in a zone starts at local midnight and spans the summer-time change (Berlin, 29th)", () => {
    const month = { unit: "month", timeZone: "Europe/Berlin", anchorDay: 29 } as const;
    // 2026-03-29 is the day Berlin moves to summer time (at 02:00).
    const p = periodAt(month, Date.parse("2026-03-29T12:00:00Z"));
    expect(iso(p.startMs)).toBe("2026-03-28T23:00:00.000Z");
    expect(iso(p.endMs)).toBe("2026-04-28T22:00:00.000Z");
    expect(p.endMs - p.startMs).toBe(31 * 24 * H - H);
    // One second before local midnight: still the period that began on Feb 28 (February has no 29th in 2026).
    expect(at(month, "2026-03-28T22:59:59Z")).toEqual(["2026-02-27T23:00:00.000Z", "2026-03-28T23:00:00.000Z"]);
  });

  it("anchor day 1 is the calendar month", () => {
    const t = Date.parse("2027-05-17T08:00:00Z");
    expect(periodAt({ unit: "month", timeZone: "UTC", anchorDay: 1 }, t)).toEqual(
      periodAt({ unit: "month", timeZone: "UTC" }, t),
    );
  });

  it("knows IANA zones and refuses made-up ones", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
