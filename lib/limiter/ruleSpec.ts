/**
 * A rule as decide.lua reads it: 9 fields (algorithm code, limit, window ms or, for a calendar rule
 * (code "fp"), its periods' bounds, burst, cost, enforce
 * "1"/"0", its field in the subject key, its penalty ms and penalty field), sent once per script call however many requests of the
 * call share it, as one argument: its `id`, the fields joined by "," (no field holds one).
 *
 * Computed once per rule object and kept in a WeakMap: rules reach the limiter as long-lived,
 * never-mutated objects (the access cache compiles them once per change), so the hot path builds
 * no strings for them. `id` identifies equal specs of different objects within a call and in the
 * refusal cache's fingerprint.
 */
import { ALGORITHM_DEFS } from "./algorithms/registry";
import { periodBounds } from "./calendar";
import { counterField, penaltyField } from "./keys";
import type { LimiterRule } from "./types";

export interface RuleSpec {
  id: string;
  fields: readonly string[];
}

const specs = new WeakMap<LimiterRule, RuleSpec>();

function build(rule: LimiterRule, cost: number, code: string, window: string): RuleSpec {
  const fields = [
    code,
    String(rule.limit),
    window,
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
export function ruleSpec(rule: LimiterRule, nowMs?: number): RuleSpec {
  if (rule.period) return periodSpec(rule, nowMs ?? Date.now());
  let spec = specs.get(rule);
  if (!spec) {
    spec = build(rule, rule.cost, ALGORITHM_DEFS[rule.algorithm].code, String(rule.windowMs));
    specs.set(rule, spec);
  }
  return spec;
}

/** A calendar rule's spec while its current period lasts (by the clock that asks), and that period. */
const periodSpecs = new WeakMap<LimiterRule, { fromMs: number; untilMs: number; spec: RuleSpec }>();

/**
 * A calendar rule (`period`): code "fp", its window the bounds of the periods around `nowMs` (this
 * process's clock, or a decision's explicit time) for the script to pick the one holding Redis TIME
 * (lua/includes/fixed_window.lua). Rebuilt once per period; the id changes with the period, so a
 * refusal cached in one period is never served in the next.
 */
function periodSpec(rule: LimiterRule, nowMs: number): RuleSpec {
  const held = periodSpecs.get(rule);
  if (held && nowMs >= held.fromMs && nowMs < held.untilMs) return held.spec;
  const bounds = periodBounds(rule.period!, nowMs);
  const spec = build(rule, rule.cost, "fp", bounds.join(":"));
  periodSpecs.set(rule, { fromMs: bounds[1], untilMs: bounds[2], spec });
  return spec;
}

/** The script's code and window field of `rule` at `nowMs` (a calendar rule's bounds), as its spec sends them. */
export function specWindow(rule: LimiterRule, nowMs: number): { code: string; window: string } {
  const fields = ruleSpec(rule, nowMs).fields;
  return { code: fields[0]!, window: fields[2]! };
}
