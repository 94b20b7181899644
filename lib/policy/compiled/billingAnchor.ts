/**
 * A key's billing day applied to its compiled rules (issue 33: "anchored at a key's own billing
 * day"). A key with `billingDay` (1..31, lib/control/admin/schemas.ts billingDaySchema) counts each
 * of its rules with `period: "month"` and scope `key` from that day of the month, at local midnight
 * in the rule's `timeZone`, instead of the 1st; a month shorter than the day starts its period on
 * its last day (lib/limiter/calendar.ts anchorDay). Rules of any other scope are shared by many keys
 * (a tenant's total) and keep calendar months; day and week periods and windowMs rules are as they are.
 *
 * Compiled at load, like the rest of a key's rule set (accessLoader.ts, compiledRules.ts): the
 * request path sees an ordinary calendar rule whose bounds are the anchored periods, so headers,
 * Retry-After, grants' default end and the quota views all give the anchored period's real end.
 */
import type { CompiledRule } from "./effectiveRules";

/** Whether `rule` follows a key's billing day. */
export function followsBillingDay(rule: CompiledRule): boolean {
  return rule.limiter.period?.unit === "month" && rule.rule.scope === "key";
}

/**
 * `rules` with every month rule of scope `key` anchored at `billingDay`; the same array (no copy)
 * when the key has no billing day, it is the 1st, or no rule follows it.
 */
export function anchorRules(rules: CompiledRule[], billingDay: number | null | undefined): CompiledRule[] {
  if (billingDay === null || billingDay === undefined || billingDay <= 1) return rules;
  if (!rules.some(followsBillingDay)) return rules;
  return rules.map((r) =>
    followsBillingDay(r)
      ? { ...r, limiter: { ...r.limiter, period: { ...r.limiter.period!, anchorDay: billingDay } } }
      : r,
  );
}
