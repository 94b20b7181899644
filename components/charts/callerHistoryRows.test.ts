import { describe, expect, it } from "vitest";
import type { CallerHistory } from "@/lib/monitoring/query/monitoringAnswers";
import { callerHistoryRows, callerNowLine, callerNowWords, ruleLegend } from "./callerHistoryRows";

const MIN = 60_000;
const history = (over: Partial<CallerHistory> = {}): CallerHistory => ({
  tenantId: "TenantA1",
  caller: "KeyA1",
  kind: "key",
  shown: "KeyA1",
  fromMs: 0,
  toMs: 3 * MIN,
  resolution: "minute",
  stepMs: MIN,
  points: [
    { t: 0, requests: 4, refused: 1, byRule: { "1": 1 } },
    { t: MIN, requests: 12, refused: 3, byRule: { "1": 1, "2": 3 } },
    { t: 2 * MIN, requests: 0, refused: 0, byRule: {} },
  ],
  rules: [
    { ref: "2", name: "burst", mode: "enforce", refused: 3 },
    { ref: "1", name: null, mode: null, refused: 2 },
  ],
  totals: { requests: 16, refused: 4 },
  current: { fromMs: MIN, toMs: 2 * MIN, requests: 12, refused: 3 },
  ...over,
});

describe("caller history rows", () => {
  it("allowed is requests less refused; one column per rule that refused, 0 where it did not", () => {
    expect(callerHistoryRows(history())).toEqual([
      { t: 0, allowed: 3, refused: 1, "rule:2": 0, "rule:1": 1 },
      { t: MIN, allowed: 9, refused: 3, "rule:2": 3, "rule:1": 1 },
      { t: 2 * MIN, allowed: 0, refused: 0, "rule:2": 0, "rule:1": 0 },
    ]);
  });

  it("names a rule, or a deleted one by its ref", () => {
    expect(history().rules.map(ruleLegend)).toEqual(["Refused by burst", "Refused by deleted rule 1"]);
  });
});

describe("the last minute in words", () => {
  it("requests, the rate, refusals with their share and the rule that refused most", () => {
    expect(callerNowWords(history())).toBe(
      "12 requests in the last minute (0.20 /s), 3 refused (25 %), mostly by burst",
    );
  });

  it("without refusals, and without requests", () => {
    expect(callerNowWords(history({ current: { fromMs: MIN, toMs: 2 * MIN, requests: 1, refused: 0 } }))).toBe(
      "1 request in the last minute (0.02 /s), none refused",
    );
    expect(callerNowWords(history({ current: { fromMs: 2 * MIN, toMs: 3 * MIN, requests: 0, refused: 0 } }))).toBe(
      "No requests in the last minute",
    );
  });
});

describe("now, with the minute still filling", () => {
  it("adds the running minute's requests and refusals when it has any", () => {
    const h = history({ current: { fromMs: 0, toMs: MIN, requests: 4, refused: 1 } });
    expect(callerNowLine(h)).toBe(
      "4 requests in the last minute (0.07 /s), 1 refused (25 %), mostly by deleted rule 1; so far this minute: 12 requests, 3 refused",
    );
    expect(callerNowLine(history())).toBe(callerNowWords(history()));
  });
});
