/** The billing hook's periods in a tenant's time zone (injected clock): local midnight, summer time, the id's date. */
import { describe, expect, it } from "vitest";
import { lastClosedPeriod, localStartDate, SETTLE_MS } from "./billingHook";
import { alertSettingsSchema } from "./alertSchema";

const iso = (p: { startMs: number; endMs: number }) => [
  new Date(p.startMs).toISOString(),
  new Date(p.endMs).toISOString(),
];

describe("billing periods in a time zone", () => {
  it("UTC stays as it was: the month before, once it is SETTLE_MS old", () => {
    const now = Date.parse("2026-11-01T00:00:00Z") + SETTLE_MS;
    expect(iso(lastClosedPeriod("month", now))).toEqual(["2026-10-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z"]);
    // A minute earlier October has not settled yet: September is the last closed month.
    expect(iso(lastClosedPeriod("month", now - 60_000))[0]).toBe("2026-09-01T00:00:00.000Z");
  });

  it("a Berlin month closes at local midnight, October holding the end of summer time (31 days and 1 hour)", () => {
    const now = Date.parse("2026-10-31T23:00:00Z") + SETTLE_MS; // Nov 1, 00:03 in Berlin (CET)
    const p = lastClosedPeriod("month", now, "Europe/Berlin");
    expect(iso(p)).toEqual(["2026-09-30T22:00:00.000Z", "2026-10-31T23:00:00.000Z"]);
    expect(p.endMs - p.startMs).toBe(31 * 86_400_000 + 3_600_000);
    expect(localStartDate(p.startMs, "Europe/Berlin")).toBe("2026-10-01");
    // In UTC the same instant is still October: September is the last closed UTC month.
    expect(iso(lastClosedPeriod("month", now))[0]).toBe("2026-09-01T00:00:00.000Z");
  });

  it("a New York day closes at its local midnight, and a week on Monday's", () => {
    const now = Date.parse("2026-11-03T05:00:00Z") + SETTLE_MS; // Nov 3, 00:03 EST
    expect(iso(lastClosedPeriod("day", now, "America/New_York"))).toEqual([
      "2026-11-02T05:00:00.000Z",
      "2026-11-03T05:00:00.000Z",
    ]);
    // 2026-11-02 is a Monday: the week before it held the end of summer time (7 days and 1 hour).
    const week = lastClosedPeriod("week", Date.parse("2026-11-02T05:00:00Z") + SETTLE_MS, "America/New_York");
    expect(iso(week)).toEqual(["2026-10-26T04:00:00.000Z", "2026-11-02T05:00:00.000Z"]);
  });

  it("the settings take an IANA zone and refuse a made-up one", () => {
    const base = { webhookUrl: "https://hooks.example.com/x", refusalRate: null, clientLimit: null };
    const ok = alertSettingsSchema.safeParse({ ...base, billing: { period: "month", timeZone: "Asia/Tokyo" } });
    expect(ok.success && ok.data.billing).toEqual({ period: "month", timeZone: "Asia/Tokyo" });
    const bad = alertSettingsSchema.safeParse({ ...base, billing: { period: "month", timeZone: "Mars/Olympus" } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["billing", "timeZone"]);
  });
});
