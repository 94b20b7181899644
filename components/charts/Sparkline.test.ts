import { describe, expect, it } from "vitest";
import { sparkPoints } from "./Sparkline";

describe("sparkPoints", () => {
  it("spreads the values over the width, the highest at the top and zero at the bottom", () => {
    expect(sparkPoints([0, 5, 10])).toBe("0.0,23.0 48.0,12.0 96.0,1.0");
  });
  it("draws an all-zero series flat on the bottom (no division by zero)", () => {
    expect(sparkPoints([0, 0])).toBe("0.0,23.0 96.0,23.0");
  });
});
