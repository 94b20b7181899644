/**
 * Builds Decision values for monitoring tests: `ruleResult(rule, verdict)` gives one rule's result
 * (allowed or not, with remaining/limit and the source), `decisionOf(results)` the decision they make
 * together by the contract's rule (refused when an enforce rule refused; shadow rules never refuse;
 * unavailable when a refusing result came from a closed fail mode).
 */
import type { Decision, LimiterRule, RuleResult } from "@/lib/limiter/types";
import { limiterRule } from "./rules";

export function ruleResult(rule: Partial<LimiterRule>, verdict: Partial<Omit<RuleResult, "rule">> = {}): RuleResult {
  const full = limiterRule(rule);
  const allowed = verdict.allowed ?? true;
  return {
    rule: full,
    allowed,
    limit: full.limit,
    remaining: allowed ? full.limit - 1 : 0,
    resetMs: 1_000,
    retryAfterMs: allowed ? 0 : 1_000,
    nextMs: 1_000,
    source: "redis",
    ...verdict,
  };
}

export function decisionOf(results: RuleResult[], nowMs = 0): Decision {
  const refusing = results.filter((r) => r.rule.mode === "enforce" && !r.allowed);
  return {
    allowed: refusing.length === 0,
    unavailable: refusing.some((r) => r.source === "fail_closed"),
    retryAfterMs: Math.max(0, ...refusing.map((r) => r.retryAfterMs)),
    nowMs,
    results,
  };
}
