/**
 * "Override this rule" on a key's effective rules (issue 31, point 2), pure:
 * - `overrideDraft`: the limit and window the form starts from, the effective rule's own;
 * - `withOverride`: the key's new override list: the effective rule as it is, but for its limit and
 *   window, saved under the same name (so it replaces the tenant rule for this key: enforcement's
 *   merge, lib/policy/compiled/effectiveRules.ts), in place of an override of that name or added;
 * - `refusalShift`: when the key's 429s moved from an overridden rule to another one (the override
 *   raised one limit and the next rule, `burst` say, now does the refusing), which and since when.
 */
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import type { Rule } from "@/lib/policy/rules/ruleSchema";
import { formatDuration } from "@/components/rules/duration";
import type { KeyDetails, RecentDecision } from "./keyTypes";

type EffectiveRule = KeyDetails["rules"]["effective"][number];

export interface RuleOverrideDraft {
  limit: string;
  window: string;
}

export function overrideDraft(rule: EffectiveRule): RuleOverrideDraft {
  return { limit: String(rule.limit), window: rule.windowMs === undefined ? "" : formatDuration(rule.windowMs) };
}

/** The rule as stored: the effective view's `source` is not a rule field (the schema is strict). */
export function stripSource(rule: EffectiveRule): Rule {
  const copy: Partial<EffectiveRule> = { ...rule };
  delete copy.source;
  return copy as Rule;
}

/**
 * The key's overrides with `rule` overridden at `limit` per `windowMs` (nothing else changes); a
 * calendar rule (`period`) keeps its period: `windowMs` undefined.
 */
export function withOverride(
  overrides: readonly Rule[],
  rule: EffectiveRule,
  limit: number,
  windowMs: number | undefined,
): RuleInput[] {
  const next: RuleInput =
    windowMs === undefined || rule.period ? { ...stripSource(rule), limit } : { ...stripSource(rule), limit, windowMs };
  const at = overrides.findIndex((r) => r.name === rule.name);
  return at >= 0 ? overrides.map((r, i) => (i === at ? next : r)) : [...overrides, next];
}

export interface RefusalShift {
  /** The overridden rule that refused before. */
  from: string;
  /** The rule refusing now. */
  to: string;
  /** The first refusal by `to` after the last by `from`. */
  sinceMs: number;
}

/**
 * Newest first, as the API lists them. The 429s "moved" when the newest refusals are by one rule,
 * the refusals before them by another, and that other rule is now a key override.
 */
export function refusalShift(
  decisions: readonly RecentDecision[],
  effective: readonly EffectiveRule[],
): RefusalShift | null {
  const refused = decisions.filter((d) => !d.allowed && d.refusedBy !== null);
  const to = refused[0]?.refusedBy;
  if (!to) return null;
  let sinceMs = refused[0]!.atMs;
  for (const d of refused) {
    if (d.refusedBy === to) {
      sinceMs = d.atMs;
      continue;
    }
    const from = d.refusedBy!;
    const overridden = effective.some((r) => r.name === from && r.source === "override");
    return overridden ? { from, to, sinceMs } : null;
  }
  return null;
}
