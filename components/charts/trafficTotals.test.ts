import { describe, expect, it } from "vitest";
import { shadowWords, trafficSummary, trafficTotals } from "./trafficTotals";

describe("traffic totals", () => {
  const series = {
    points: [
      { t: 0, allowed: 900, refused: 5_000, shadowRefused: 21 },
      { t: 60_000, allowed: 1_200, refused: 40, shadowRefused: 1_000 },
    ],
  };

  it("sums the points and says the shadow figure counts extra refusals, not a shadow rule's own total", () => {
    const totals = trafficTotals(series);
    expect(totals).toEqual({ allowed: 2_100, refused: 5_040, shadowRefused: 1_021 });
    expect(shadowWords(totals)).toBe("1,021 more would be refused if the shadow rules were enforced");
    expect(trafficSummary(totals)).toBe(
      "2,100 allowed, 5,040 refused, 1,021 more would be refused if the shadow rules were enforced",
    );
  });
});
