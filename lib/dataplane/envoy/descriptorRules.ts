/**
 * Which of a tenant's `descriptor` rules apply to the descriptors of one ShouldRateLimit call, and
 * the subject each counts (../shared/CONTRACT.md "Envoy's rate limit service").
 *
 * Contract
 * - A rule applies to a descriptor when its `match.descriptor` has exactly the descriptor's entry
 *   keys in the same order and, where it gives a value, that value (compared exactly); an entry
 *   counted per value needs a non-empty value.
 * - It counts per distinct values of its entries without a value: the subject is that value (one
 *   such entry), the values as a JSON list (several), or "=" (none: one counter for the rule).
 *   Long subjects are hashed by lib/limiter/keys.ts like every subject; they are subject to the
 *   subject budget (lib/limiter/subjectBudget.ts) like `header` values.
 * - `rulesForCall` returns ONE list of limiter rules for the whole call, with `Subject.attributes`
 *   holding each rule's subject under its `descriptorSlot` (`<descriptor index>:<ref>`), so one
 *   Limiter.decide covers every descriptor; `byDescriptor[i]` lists the indices of descriptor i's
 *   rules in that list. The limiter rule of each (rule, descriptor) is the compiled rule's with
 *   the call's units as its cost and its slot: same ref, so the same counters on every call.
 * - Only the tenant's own rules: a call carries no API key, so key overrides never apply.
 */
import type { LimiterRule } from "../../limiter/types";
import type { CompiledRule } from "../../policy/compiled/effectiveRules";
import type { RlsDescriptor } from "./rlsRequest";

/** A tenant's descriptor rules, compiled once per loaded rule set (the access cache replaces the list on a change). */
interface DescriptorRule {
  limiter: LimiterRule;
  keys: string[];
  /** Per entry: the value it must have, or undefined (counted per value). */
  values: (string | undefined)[];
  /** Indices of the entries without a value. */
  counted: number[];
}

const compiledLists = new WeakMap<CompiledRule[], DescriptorRule[]>();

export function descriptorRulesOf(rules: CompiledRule[]): DescriptorRule[] {
  let list = compiledLists.get(rules);
  if (list) return list;
  list = [];
  for (const rule of rules) {
    const descriptor = rule.rule.match.descriptor;
    if (rule.rule.scope !== "descriptor" || !descriptor) continue;
    list.push({
      limiter: rule.limiter,
      keys: descriptor.map((e) => e.key),
      values: descriptor.map((e) => e.value),
      counted: descriptor.flatMap((e, i) => (e.value === undefined ? [i] : [])),
    });
  }
  compiledLists.set(rules, list);
  return list;
}

export function appliesTo(rule: DescriptorRule, entries: [string, string][]): boolean {
  if (rule.keys.length !== entries.length) return false;
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i]!;
    if (rule.keys[i] !== key) return false;
    const wanted = rule.values[i];
    // An empty value counts as absent: no counter of its own (the rule skips, as onMissing skip).
    if (wanted === undefined ? value === "" : wanted !== value) return false;
  }
  return true;
}

/** The subject a rule counts a descriptor's call on (see the contract). */
export function descriptorSubject(rule: DescriptorRule, entries: [string, string][]): string {
  if (rule.counted.length === 0) return "=";
  if (rule.counted.length === 1) return entries[rule.counted[0]!]![1];
  return JSON.stringify(rule.counted.map((i) => entries[i]![1]));
}

/** Per-call limiter rules for cost 1 (the usual call), reused: built once per rule and slot. */
const unitRules = new WeakMap<LimiterRule, Map<string, LimiterRule>>();

function callRule(rule: LimiterRule, slot: string, hits: number): LimiterRule {
  if (hits !== 1) return { ...rule, cost: hits, descriptorSlot: slot };
  let bySlot = unitRules.get(rule);
  if (!bySlot) unitRules.set(rule, (bySlot = new Map()));
  let derived = bySlot.get(slot);
  if (!derived) bySlot.set(slot, (derived = { ...rule, cost: 1, descriptorSlot: slot }));
  return derived;
}

export interface CallRules {
  rules: LimiterRule[];
  attributes: Record<string, string>;
  byDescriptor: number[][];
}

export function rulesForCall(tenantRules: CompiledRule[], descriptors: RlsDescriptor[]): CallRules {
  const candidates = descriptorRulesOf(tenantRules);
  const rules: LimiterRule[] = [];
  const attributes: Record<string, string> = {};
  const byDescriptor: number[][] = [];
  descriptors.forEach((descriptor, i) => {
    const indices: number[] = [];
    for (const rule of candidates) {
      if (!appliesTo(rule, descriptor.entries)) continue;
      const slot = `${i}:${rule.limiter.ref}`;
      attributes[slot] = descriptorSubject(rule, descriptor.entries);
      indices.push(rules.length);
      rules.push(callRule(rule.limiter, slot, descriptor.hits));
    }
    byDescriptor.push(indices);
  });
  return { rules, attributes, byDescriptor };
}
