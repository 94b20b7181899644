import { describe, expect, it } from "vitest";
import { dayText, isoDayOf, parseDateText } from "./dateInput";

describe("dates typed in the dashboard's format", () => {
  it("reads '27 Nov 2026, 14:30' with or without the comma, and the ISO forms, as local time", () => {
    const at = new Date(2026, 10, 27, 14, 30).getTime();
    expect(parseDateText("27 Nov 2026, 14:30", true)).toBe(at);
    expect(parseDateText(" 27 nov 2026 14:30 ", true)).toBe(at);
    expect(parseDateText("27 November 2026, 14:30", true)).toBe(at);
    expect(parseDateText("2026-11-27T14:30", true)).toBe(at);
    expect(parseDateText("27 Nov 2026", false)).toBe(new Date(2026, 10, 27).getTime());
  });

  it("refuses what is not a real date, and a day alone where a time is needed", () => {
    expect(parseDateText("31 Feb 2026", false)).toBeNull();
    expect(parseDateText("27 Nov 2026, 25:00", true)).toBeNull();
    expect(parseDateText("11/27/2026", false)).toBeNull();
    expect(parseDateText("27 Nov 2026", true)).toBeNull();
    expect(parseDateText("27 Foo 2026", false)).toBeNull();
  });

  it("days to and from the URL's ISO form", () => {
    expect(isoDayOf("1 Jan 2099")).toBe("2099-01-01");
    expect(isoDayOf("2099-01-01")).toBe("2099-01-01");
    expect(isoDayOf("nope")).toBeNull();
    expect(dayText("2099-01-01")).toBe("1 Jan 2099");
  });
});
