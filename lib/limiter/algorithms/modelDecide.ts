/**
 * One decision over several rules computed from the reference models alone, the way decide.lua
 * combines them: each rule is evaluated on its own state; the request commits only when every
 * enforce rule allows, and then each allowing rule (shadow or not) consumes; a refusing rule never
 * consumes. Pure apart from `states` (rule ref -> model state), which the caller owns and which is
 * updated in place exactly as Redis would be. Used to check the Lua against the models (tests and
 * `npm run bench`).
 */
import type { LimiterRule } from "../types";
import { roundView } from "./model";
import { ALGORITHM_DEFS } from "./registry";

export interface ModelRuleResult {
  allowed: boolean;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
  nextMs: number;
}

export function modelDecide(states: Map<string, unknown>, rules: readonly LimiterRule[], nowMs: number): ModelRuleResult[] {
  const evals = rules.map((r) => ALGORITHM_DEFS[r.algorithm].model.evaluate(states.get(r.ref), r, nowMs, r.cost));
  const commit = evals.every((e, i) => rules[i]!.mode === "shadow" || e.allowed);
  return evals.map((e, i) => {
    const consumed = commit && e.allowed && e.next !== null;
    if (consumed) states.set(rules[i]!.ref, e.next!.state);
    const view = roundView(consumed ? e.after : e.before);
    // decide.ts turns "never" (-1) into one window; so does this.
    return { allowed: e.allowed, ...view, retryAfterMs: e.retryAfterMs < 0 ? rules[i]!.windowMs : e.retryAfterMs };
  });
}
