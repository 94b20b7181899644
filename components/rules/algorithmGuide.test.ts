import { describe, expect, it } from "vitest";
import { describeDuration } from "./algorithmGuide";

describe("describeDuration (window lengths in the rule list and form)", () => {
  it.each([
    [1000, "1 s"],
    [1500, "1.5 s"],
    [60_000, "1 min"],
    [3_600_000, "1 h"],
    [86_400_000, "1 d"],
    [31_622_400_000, "366 d"],
    [999, "999 ms"],
  ])("%d ms reads %s", (ms, text) => {
    expect(describeDuration(ms)).toBe(text);
  });

  it("says nothing for what is not a positive number (the form shows the schema's error instead)", () => {
    expect(describeDuration(Number.NaN)).toBe("");
    expect(describeDuration(0)).toBe("");
  });
});
