import { describe, expect, it } from "vitest";
import type { RefusalRates } from "@/lib/monitoring/query/monitoringAnswers";
import { lineLabel, rateChart } from "./refusalRateLines";

type RateLine = RefusalRates["byTenant"][number];

const point = (t: number, allowed: number, refused: number, shadowRefused: number) => {
  const requests = allowed + refused + shadowRefused;
  return {
    t,
    allowed,
    refused,
    shadowRefused,
    requests,
    refusedPct: requests ? (100 * refused) / requests : null,
    shadowRefusedPct: requests ? (100 * shadowRefused) / requests : null,
  };
};

const line = (over: Partial<RateLine>, points = [point(0, 3, 1, 0), point(5000, 0, 0, 0)]): RateLine => ({
  tenantId: "aB3dE5fG",
  tenantName: "Acme",
  rule: null,
  total: { allowed: 3, refused: 1, shadowRefused: 0, requests: 4, refusedPct: 25, shadowRefusedPct: 0 },
  points,
  ...over,
});

describe("rateChart", () => {
  it("pivots lines into rows by time, keeping empty buckets as gaps", () => {
    const { rows, lines } = rateChart([line({})], false);
    expect(lines).toEqual([
      { key: "aB3dE5fG", label: "Acme", shadow: false, requests: 4, pct: 25, tenantId: "aB3dE5fG" },
    ]);
    expect(rows).toEqual([
      { t: 0, aB3dE5fG: 25 },
      { t: 5000, aB3dE5fG: null },
    ]);
  });

  it("draws a shadow rule's would-refuse rate, marked as shadow", () => {
    const shadow = line(
      {
        rule: { ref: "2", name: "trial", mode: "shadow" },
        total: { allowed: 2, refused: 0, shadowRefused: 2, requests: 4, refusedPct: 0, shadowRefusedPct: 50 },
      },
      [point(0, 2, 0, 2)],
    );
    const { rows, lines } = rateChart([shadow], true);
    expect(lines[0]).toMatchObject({ label: "Acme · trial (shadow)", shadow: true, pct: 50 });
    expect(rows).toEqual([{ t: 0, "aB3dE5fG:2": 50 }]);
  });
});

describe("lineLabel", () => {
  it("names deleted rules by ref and falls back to the tenant id", () => {
    expect(lineLabel(line({ tenantName: null, rule: { ref: "7", name: null, mode: null } }), true)).toBe(
      "aB3dE5fG · deleted rule (7)",
    );
  });
  it("keeps markup as plain text (React renders it as text)", () => {
    expect(lineLabel(line({ tenantName: "<img src=x onerror=alert(1)>" }), false)).toBe("<img src=x onerror=alert(1)>");
  });
});
