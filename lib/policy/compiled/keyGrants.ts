/**
 * Grants (issue 33): extra units for one key on a rule until a date (POST
 * /api/admin/keys/{keyId}/grants, lib/control/admin/grantService.ts). A grant raises the key's
 * effective limit (and a bucket's burst) on its rule by its units while it lasts; grants add up. The
 * rule keeps its ref, so its counters stay the same: a key at its limit gets exactly `units` more.
 *
 * The access loader (accessLoader.ts) attaches the key's unexpired grants and its rules without
 * them; `grantedRules` gives the rules in force at a time, and when the next grant ends, so the
 * access cache recomputes them only then (an expired grant disappears by itself, with no notice).
 */
import type { CompiledRule } from "./effectiveRules";

export interface ActiveGrant {
  id: string;
  /** The rule's name; undefined: every `key`-scoped rule of the key. */
  rule?: string;
  units: number;
  untilMs: number;
}

/** A key's grants as the access cache keeps them: its rules without grants, and the rules in force until `changesAtMs`. */
export interface KeyGrants {
  base: CompiledRule[];
  list: ActiveGrant[];
  /** The rules with the grants unexpired at the last computation. */
  rules: CompiledRule[];
  /** When the next of those grants ends (Infinity: none left). */
  changesAtMs: number;
}

/** Whether `grant` applies to `rule`: the named rule, or every key-scoped rule. */
export function grantApplies(grant: Pick<ActiveGrant, "rule">, rule: CompiledRule): boolean {
  return rule.rule.scope === "key" && (grant.rule === undefined || grant.rule === rule.rule.name);
}

/** `base` with every grant of `grants` still running at `nowMs` added to the limits it applies to. */
export function withGrants(base: CompiledRule[], grants: readonly ActiveGrant[], nowMs: number): KeyGrants {
  const running = grants.filter((g) => g.untilMs > nowMs);
  const changesAtMs = running.reduce((soonest, g) => Math.min(soonest, g.untilMs), Infinity);
  const rules = base.map((rule) => {
    const extra = running.filter((g) => grantApplies(g, rule)).reduce((sum, g) => sum + g.units, 0);
    if (extra === 0) return rule;
    return {
      ...rule,
      limiter: { ...rule.limiter, limit: rule.limiter.limit + extra, burst: rule.limiter.burst + extra },
    };
  });
  return { base, list: running, rules, changesAtMs };
}

/** The rules in force at `nowMs`: recomputed (in place) once the soonest grant has ended. */
export function grantedRules(grants: KeyGrants, nowMs: number): CompiledRule[] {
  if (nowMs >= grants.changesAtMs) Object.assign(grants, withGrants(grants.base, grants.list, nowMs));
  return grants.rules;
}
