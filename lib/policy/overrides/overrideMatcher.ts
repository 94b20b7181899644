/**
 * Which limit an identifier gets under an `identifier` rule with overrides: its exact override,
 * else the override of the longest matching prefix (`enterprise:*`), else the rule itself.
 *
 * Contract
 * - Built once per load of the tenant (lib/policy/compiled/accessLoader.ts), never per request; each
 *   override becomes a long-lived LimiterRule sharing the rule's ref, so an identifier's counter is
 *   the same whichever limit applies (a changed override applies to the count so far).
 * - A lookup costs one Map probe for the exact identifiers plus one per distinct prefix length no
 *   longer than the identifier (at most 256, in practice a handful), longest first: never a scan
 *   of the overrides.
 */
import type { LimiterRule } from "../../limiter/types";
import { isWildcard, type IdentifierOverride } from "./overrideSchema";

export interface OverrideMatcher {
  /** The rule the identifier is charged under (the base rule when no override matches). */
  ruleFor(identifier: string): LimiterRule;
  readonly size: number;
}

/** The base rule with an override's limit, window and burst. */
export function overriddenRule(base: LimiterRule, override: IdentifierOverride): LimiterRule {
  return {
    ...base,
    limit: override.limit,
    windowMs: override.windowMs ?? base.windowMs,
    burst: override.burst ?? override.limit,
  };
}

export function compileOverrides(base: LimiterRule, overrides: readonly IdentifierOverride[]): OverrideMatcher {
  const exact = new Map<string, LimiterRule>();
  const prefixes = new Map<string, LimiterRule>();
  for (const o of overrides) {
    if (isWildcard(o.identifier)) prefixes.set(o.identifier.slice(0, -1), overriddenRule(base, o));
    else exact.set(o.identifier, overriddenRule(base, o));
  }
  const lengths = [...new Set([...prefixes.keys()].map((p) => p.length))].sort((x, y) => y - x);
  return {
    size: overrides.length,
    ruleFor(identifier) {
      const own = exact.get(identifier);
      if (own) return own;
      for (const length of lengths) {
        if (length > identifier.length) continue;
        const hit = prefixes.get(identifier.slice(0, length));
        if (hit) return hit;
      }
      return base;
    },
  };
}
