/**
 * The `RateLimitResponse` of one decision (../shared/CONTRACT.md "Envoy's rate limit service").
 *
 * Contract: `rlsResponse(decision, byDescriptor)`:
 * - `overall_code` OVER_LIMIT when the decision refused (an enforce rule refused; nothing was
 *   charged), else OK;
 * - one status per descriptor, in order: OVER_LIMIT when one of its enforce rules refused, else OK;
 *   for a descriptor an enforce rule applies to, the most restrictive such rule's `current_limit`
 *   (`currentLimit`), `limit_remaining` and `duration_until_reset` (until the rule is whole again;
 *   for a refusing rule, until the call would pass it). Shadow rules never show here (nor refuse);
 * - `response_headers_to_add`: the decision's `RateLimit-Policy` and `RateLimit` headers, and
 *   `Retry-After` when refused (lib/limiter/headers.ts, as on HTTP responses).
 * A decision that is `unavailable` never gets here: the service answers gRPC UNAVAILABLE.
 */
import { byRestrictiveness, rateLimitHeaders } from "../../limiter/headers";
import type { Decision, RuleResult } from "../../limiter/types";

export type RlsCode = "OK" | "OVER_LIMIT";
export type RlsUnit = "SECOND" | "MINUTE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "YEAR";

export interface RlsStatus {
  code: RlsCode;
  current_limit?: { name: string; requests_per_unit: number; unit: RlsUnit };
  limit_remaining?: number;
  duration_until_reset?: { seconds: number; nanos: number };
}

export interface RlsResponse {
  overall_code: RlsCode;
  statuses: RlsStatus[];
  response_headers_to_add: { key: string; value: string }[];
  request_headers_to_add: { key: string; value: string }[];
}

const UNITS: [number, RlsUnit][] = [
  [1_000, "SECOND"],
  [60_000, "MINUTE"],
  [3_600_000, "HOUR"],
  [86_400_000, "DAY"],
  [365 * 86_400_000, "YEAR"],
];

/** Envoy's view of a limit: per its unit when the window is one, else per second, rounded up. */
export function currentLimit(limit: number, windowMs: number): { requests_per_unit: number; unit: RlsUnit } {
  const unit = UNITS.find(([ms]) => ms === windowMs);
  if (unit) return { requests_per_unit: limit, unit: unit[1] };
  return { requests_per_unit: Math.ceil((limit * 1_000) / windowMs), unit: "SECOND" };
}

const PERIOD_UNITS = { day: "DAY", week: "WEEK", month: "MONTH" } as const;

/** A calendar rule (period) per its Envoy unit, DAY, WEEK or MONTH; any other per its window. */
function limitOfRule(limit: number, rule: RuleResult["rule"]): { requests_per_unit: number; unit: RlsUnit } {
  if (rule.period) return { requests_per_unit: limit, unit: PERIOD_UNITS[rule.period.unit] };
  return currentLimit(limit, rule.windowMs);
}

function duration(ms: number): { seconds: number; nanos: number } {
  const whole = Math.max(0, Math.ceil(ms));
  return { seconds: Math.floor(whole / 1_000), nanos: (whole % 1_000) * 1_000_000 };
}

function statusOf(results: RuleResult[]): RlsStatus {
  const enforced = results.filter((r) => r.rule.mode === "enforce");
  if (enforced.length === 0) return { code: "OK" };
  const top = enforced.sort(byRestrictiveness)[0]!;
  return {
    code: top.allowed ? "OK" : "OVER_LIMIT",
    current_limit: { name: top.rule.name, ...limitOfRule(top.limit, top.rule) },
    limit_remaining: Math.max(0, Math.floor(top.remaining)),
    duration_until_reset: duration(top.allowed ? top.resetMs : top.retryAfterMs),
  };
}

const FORWARDED = ["RateLimit-Policy", "RateLimit", "Retry-After"];

export function rlsResponse(decision: Decision, byDescriptor: number[][]): RlsResponse {
  const headers = rateLimitHeaders(decision);
  return {
    overall_code: decision.allowed ? "OK" : "OVER_LIMIT",
    statuses: byDescriptor.map((indices) => statusOf(indices.map((i) => decision.results[i]!))),
    response_headers_to_add: FORWARDED.flatMap((key) =>
      headers[key] === undefined ? [] : [{ key: key.toLowerCase(), value: headers[key]! }],
    ),
    request_headers_to_add: [],
  };
}
