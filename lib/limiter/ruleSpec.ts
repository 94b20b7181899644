/**
 * A rule as decide.lua reads it: 9 fields (algorithm code, limit, window ms, burst, cost, enforce
 * "1"/"0", its field in the subject key, its penalty ms and penalty field), sent once per script call however many requests of the
 * call share it, as one argument: its `id`, the fields joined by "," (no field holds one).
 *
 * Computed once per rule object and kept in a WeakMap: rules reach the limiter as long-lived,
 * never-mutated objects (the access cache compiles them once per change), so the hot path builds
 * no strings for them. `id` identifies equal specs of different objects within a call and in the
 * refusal cache's fingerprint.
 */
import { ALGORITHM_DEFS } from "./algorithms/registry";
import { counterField, penaltyField } from "./keys";
import type { LimiterRule } from "./types";

export interface RuleSpec {
  id: string;
  fields: readonly string[];
}

const specs = new WeakMap<LimiterRule, RuleSpec>();

function build(rule: LimiterRule, cost: number): RuleSpec {
  const fields = [
    ALGORITHM_DEFS[rule.algorithm].code,
    String(rule.limit),
    String(rule.windowMs),
    String(rule.burst),
    String(cost),
    rule.mode === "enforce" ? "1" : "0",
    counterField(rule),
    String(rule.blockMs),
    penaltyField(rule),
  ];
  return { id: fields.join(","), fields };
}

/**
 * The spec a decision or a peek sends (the same: charging is the call's commit flag). A peek
 * carries the rule's cost too: decide.lua never writes when it is told not to commit, and with the
 * cost its answer says whether (allowed) and when (retryAfterMs) a request would pass; `remaining`,
 * `resetMs` and `nextMs` of a peek are the untouched state's either way.
 */
export function ruleSpec(rule: LimiterRule): RuleSpec {
  let spec = specs.get(rule);
  if (!spec) {
    spec = build(rule, rule.cost);
    specs.set(rule, spec);
  }
  return spec;
}
