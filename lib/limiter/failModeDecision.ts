/**
 * Decisions made without Redis's answer, and the summary every decision shares.
 *
 * Contract
 * - `summarize`: a request passes only once every refusing enforce rule lets it; its Retry-After is
 *   the longest of theirs. A decision that is `unavailable` never passes.
 * - `failModeDecisionOf`: what `decide` answers when Redis cannot (lib/limiter/decide.ts), rule by
 *   rule by its failMode: `open` allows, `closed` refuses with `unavailable: true` (503, Retry-After
 *   at least 1 s), `local` enforces in this process's memory (localLimiter.ts). When a `closed`
 *   enforce rule refuses, the local rules check without consuming.
 */
import { counterField, penaltyField, penaltyKey, stateId } from "./keys";
import type { LocalLimiter } from "./localLimiter";
import type { Decision, LimiterRule, RuleResult, Subject } from "./types";

/** The decision over no rules: allowed, nothing counted. */
export const EMPTY = (nowMs: number): Decision => ({
  allowed: true,
  unavailable: false,
  retryAfterMs: 0,
  nowMs,
  results: [],
});

/** A request can pass only once every refusing enforce rule lets it. */
export function summarize(results: RuleResult[], nowMs: number, unavailable = false): Decision {
  const refusing = results.filter((r) => r.rule.mode === "enforce" && !r.allowed);
  return {
    allowed: !unavailable && refusing.length === 0,
    unavailable,
    retryAfterMs: refusing.reduce((max, r) => Math.max(max, r.retryAfterMs), 0),
    nowMs,
    results,
  };
}

/** `decide`'s answer when Redis could not give one: each rule by its failMode (see the contract above). */
export function failModeDecisionOf(
  rules: LimiterRule[],
  keys: string[],
  subject: Subject,
  deps: { prefix: string; local?: LocalLimiter; nowMs: number },
): Decision {
  const now = deps.nowMs;
  // A `closed` enforce rule refuses the request (503), so the local rules must not consume.
  const unavailable = rules.some((rule) => rule.failMode === "closed" && rule.mode === "enforce");
  const localRules = rules
    .map((rule, i) => ({
      rule,
      key: stateId(keys[i]!, counterField(rule)),
      penaltyKey: stateId(penaltyKey(deps.prefix, rule, subject), penaltyField(rule)),
    }))
    .filter(({ rule }) => rule.failMode === "local" && deps.local);
  const localResults = new Map(
    (deps.local?.decide(localRules, now, !unavailable) ?? []).map((result) => [result.rule, result] as const),
  );
  const results = rules.map((rule): RuleResult => {
    const local = localResults.get(rule);
    if (local) return local;
    const closed = rule.failMode === "closed" && rule.mode === "enforce";
    return {
      rule,
      allowed: !closed,
      limit: rule.limit,
      remaining: closed ? 0 : rule.limit,
      resetMs: 0,
      retryAfterMs: closed ? 1000 : 0,
      nextMs: 0,
      source: closed ? "fail_closed" : "fail_open",
    };
  });
  const decision = summarize(results, now, unavailable);
  if (unavailable) decision.retryAfterMs = Math.max(decision.retryAfterMs, 1000);
  return decision;
}
