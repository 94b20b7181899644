/**
 * Grants for JWT subjects and tiers (issue 33, POST /api/admin/tenants/{tenantId}/grants,
 * lib/control/admin/callerGrantService.ts), as enforcement applies them. Same effect as a key's
 * grant (keyGrants.ts): the limit of each `key`-scoped rule the grant names (absent: every one) is
 * raised by its units while it lasts, and the rule keeps its ref, so a caller at its limit gets
 * exactly `units` more.
 *
 * - A subject's grant applies to the JWT caller with that subject, whatever tier its token names.
 * - A tier's grant applies to EACH caller of the tier: every key whose tier it is (the access loader
 *   adds it to the key's own grants) and every JWT caller whose tier claim names it.
 * - `callerRules` answers a JWT caller's rules in force: one Map lookup per index when the tenant
 *   has grants of that kind, nothing otherwise; the (tier, subject) combinations that have grants
 *   are computed once, when first asked, and recomputed only when their soonest grant ends (so an
 *   expired grant disappears by itself, with no notice). The index is rebuilt by every reload.
 */
import type { CompiledRule } from "./effectiveRules";
import { grantedRules, withGrants, type ActiveGrant, type KeyGrants } from "./keyGrants";

export interface CallerGrantIndex {
  /** Running grants by JWT subject. */
  bySubject: Map<string, ActiveGrant[]>;
  /** Running grants by tier name. */
  byTier: Map<string, ActiveGrant[]>;
  /** By `tier \0 subject`: the rules in force for that JWT caller, computed when first asked. */
  computed: Map<string, KeyGrants>;
}

const NONE: readonly ActiveGrant[] = [];

/** An empty index, filled by `addCallerGrant`. */
export function callerGrantIndex(): CallerGrantIndex {
  return { bySubject: new Map(), byTier: new Map(), computed: new Map() };
}

export function addCallerGrant(
  index: CallerGrantIndex,
  owner: { subject?: string; tier?: string },
  grant: ActiveGrant,
) {
  const [map, name] = owner.subject !== undefined ? [index.bySubject, owner.subject] : [index.byTier, owner.tier!];
  let list = map.get(name);
  if (!list) map.set(name, (list = []));
  list.push(grant);
}

/** The running grants of `tier` (none: an empty list, never copied). */
export function tierGrants(index: CallerGrantIndex | undefined, tier: string | undefined): readonly ActiveGrant[] {
  return (tier !== undefined ? index?.byTier.get(tier) : undefined) ?? NONE;
}

/**
 * The rules in force for a JWT caller (`subject`, `tier` from its token) whose rules without grants
 * are `base`: `base` itself when neither its subject nor its tier has a grant.
 */
export function callerRules(
  index: CallerGrantIndex | undefined,
  base: CompiledRule[],
  subject: string | undefined,
  tier: string | undefined,
  nowMs: number,
): CompiledRule[] {
  if (!index) return base;
  const own = subject !== undefined && index.bySubject.size > 0 ? index.bySubject.get(subject) : undefined;
  const ofTier = tier !== undefined && index.byTier.size > 0 ? index.byTier.get(tier) : undefined;
  if (!own && !ofTier) return base;
  const id = `${tier ?? ""}\0${own ? subject : ""}`;
  let grants = index.computed.get(id);
  if (!grants || grants.base !== base) {
    grants = withGrants(base, [...(own ?? NONE), ...(ofTier ?? NONE)], nowMs);
    index.computed.set(id, grants);
  }
  return grantedRules(grants, nowMs);
}
