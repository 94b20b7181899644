import { describe, expect, it } from "vitest";
import type { Decision, LimiterRule, RuleResult } from "../../limiter/types";
import { currentLimit, rlsResponse } from "./rlsResponse";

const rule = (name: string, extra: Partial<LimiterRule> = {}): LimiterRule => ({
  name,
  ref: name,
  scope: "descriptor",
  algorithm: "fixed_window",
  limit: 10,
  windowMs: 60_000,
  burst: 10,
  cost: 1,
  blockMs: 0,
  failMode: "open",
  mode: "enforce",
  ...extra,
});
const result = (r: LimiterRule, extra: Partial<RuleResult> = {}): RuleResult => ({
  rule: r,
  allowed: true,
  limit: r.limit,
  remaining: 9,
  resetMs: 30_500,
  retryAfterMs: 0,
  nextMs: 30_500,
  source: "redis",
  ...extra,
});
const decision = (
  results: RuleResult[],
  allowed = results.every((r) => r.allowed || r.rule.mode === "shadow"),
): Decision => ({
  allowed,
  unavailable: false,
  retryAfterMs: allowed ? 0 : Math.max(...results.map((r) => r.retryAfterMs)),
  nowMs: 1_000_000,
  results,
});

describe("currentLimit", () => {
  it("names the unit for windows of a second, minute, hour, day and 365 days", () => {
    expect(currentLimit(5, 1_000)).toEqual({ requests_per_unit: 5, unit: "SECOND" });
    expect(currentLimit(5, 60_000)).toEqual({ requests_per_unit: 5, unit: "MINUTE" });
    expect(currentLimit(5, 3_600_000)).toEqual({ requests_per_unit: 5, unit: "HOUR" });
    expect(currentLimit(5, 86_400_000)).toEqual({ requests_per_unit: 5, unit: "DAY" });
    expect(currentLimit(5, 365 * 86_400_000)).toEqual({ requests_per_unit: 5, unit: "YEAR" });
  });
  it("otherwise the limit per second, rounded up", () => {
    expect(currentLimit(5, 10_000)).toEqual({ requests_per_unit: 1, unit: "SECOND" });
    expect(currentLimit(100, 30_000)).toEqual({ requests_per_unit: 4, unit: "SECOND" });
  });
});

describe("rlsResponse", () => {
  it("one status per descriptor in order; a descriptor no rule applies to is a plain OK", () => {
    const a = rule("a");
    const response = rlsResponse(decision([result(a)]), [[], [0]]);
    expect(response.overall_code).toBe("OK");
    expect(response.statuses).toEqual([
      { code: "OK" },
      {
        code: "OK",
        current_limit: { name: "a", requests_per_unit: 10, unit: "MINUTE" },
        limit_remaining: 9,
        duration_until_reset: { seconds: 30, nanos: 500_000_000 },
      },
    ]);
    expect(response.response_headers_to_add).toEqual([
      { key: "ratelimit-policy", value: '"a";q=10;w=60' },
      { key: "ratelimit", value: '"a";r=9;t=31' },
    ]);
  });

  it("a refusal: OVER_LIMIT overall and on the refused descriptor only, the retry time, Retry-After", () => {
    const a = rule("a");
    const b = rule("b", { limit: 2 });
    const response = rlsResponse(
      decision([result(a), result(b, { allowed: false, remaining: 0, retryAfterMs: 4_000, limit: 2 })]),
      [[0], [1]],
    );
    expect(response.overall_code).toBe("OVER_LIMIT");
    expect(response.statuses.map((s) => s.code)).toEqual(["OK", "OVER_LIMIT"]);
    expect(response.statuses[1]).toMatchObject({ limit_remaining: 0, duration_until_reset: { seconds: 4, nanos: 0 } });
    expect(response.response_headers_to_add).toContainEqual({ key: "retry-after", value: "4" });
  });

  it("the most restrictive enforce rule of a descriptor is the one reported; shadow rules never refuse nor show", () => {
    const loose = rule("loose", { limit: 100 });
    const tight = rule("tight", { limit: 3 });
    const shadow = rule("shadow", { mode: "shadow" });
    const response = rlsResponse(
      decision([
        result(loose, { remaining: 90 }),
        result(tight, { remaining: 1, limit: 3 }),
        result(shadow, { allowed: false, remaining: 0 }),
      ]),
      [[0, 1], [2]],
    );
    expect(response.overall_code).toBe("OK");
    expect(response.statuses[0]).toMatchObject({ code: "OK", current_limit: { name: "tight" }, limit_remaining: 1 });
    expect(response.statuses[1]).toEqual({ code: "OK" });
  });
});
