/**
 * One decision over several rules computed from the reference models alone, the way decide.lua
 * combines them: each rule is evaluated on its own state, then its penalty applied (penalty.ts); the
 * request commits only when every enforce rule allows, and then each allowing rule (shadow or not)
 * consumes; a refusing rule never consumes. Pure apart from `states` (rule ref -> model state,
 * `!` + ref -> penalty end), which the caller owns and which is updated in place exactly as Redis
 * would be. Used to check the Lua against the models (tests and `npm run bench`). `lease` is the
 * request's lease id, the member its concurrency rules add (see concurrency.ts for release).
 */
import type { LimiterRule } from "../types";
import { roundView } from "./model";
import { applyPenalty } from "./penalty";
import { ALGORITHM_DEFS } from "./registry";

export interface ModelRuleResult {
  allowed: boolean;
  penalized: boolean;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
  nextMs: number;
}

export function modelDecide(
  states: Map<string, unknown>,
  rules: readonly LimiterRule[],
  nowMs: number,
  commit = true,
  lease = "",
): ModelRuleResult[] {
  const outcomes = rules.map((r) => {
    const own = ALGORITHM_DEFS[r.algorithm].model.evaluate(states.get(r.ref), r, nowMs, r.cost, lease);
    const outcome = applyPenalty(own, states.get("!" + r.ref) as number | undefined, r.blockMs, nowMs, commit);
    if (outcome.startsUntil !== null) states.set("!" + r.ref, outcome.startsUntil);
    return outcome;
  });
  const admitted = commit && outcomes.every(({ evaluation }, i) => rules[i]!.mode === "shadow" || evaluation.allowed);
  return outcomes.map(({ evaluation: e, penalized }, i) => {
    const consumed = admitted && e.allowed && e.next !== null;
    if (consumed) states.set(rules[i]!.ref, e.next!.state);
    const view = roundView(consumed ? e.after : e.before);
    // decide.ts turns "never" (-1) into one window; so does this.
    return {
      allowed: e.allowed,
      penalized,
      ...view,
      retryAfterMs: e.retryAfterMs < 0 ? rules[i]!.windowMs : e.retryAfterMs,
    };
  });
}
