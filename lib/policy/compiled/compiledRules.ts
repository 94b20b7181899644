/**
 * A tenant's rules, some of its keys' overrides and the rules of their tiers, read from Postgres and
 * compiled exactly as enforcement compiles them (lib/policy/compiled/accessLoader.ts: same
 * `compileRule`, same counter refs, same `layerRules` merge), for the admin API's views of a key
 * (its effective rules, its remaining quota) and the simulator.
 *
 * Rules are read before refs: a rule and its ref are written in one transaction and refs are never
 * deleted, so every rule read has its ref. A rule without one is a corrupt store (an Error, 500).
 */
import { getDb } from "../../db/client";
import { compileRule, compileTierRule, layerRules, type CompiledRule } from "./effectiveRules";
import { refToken } from "../rules/ruleRefs";
import { fromColumns } from "../rules/storedRule";
import { anchorRules } from "./billingAnchor";

export interface CompiledRuleSets {
  /** The tenant's own rules, in order. */
  tenant: CompiledRule[];
  /** Each requested key's overrides, in order (an empty list when it has none). */
  overrides: Map<string, CompiledRule[]>;
  /** Each requested key's tier (absent: none). */
  keyTiers: Map<string, string>;
  /** Each requested key's billing day (absent: none; billingAnchor.ts). */
  keyBillingDays: Map<string, number>;
  /** The rules of the tiers asked for and of the requested keys' tiers, by tier (absent: no rules). */
  tiers: Map<string, CompiledRule[]>;
}

/** `tiers`: tiers to load besides those of `keyIds` (the simulator's JWT callers). */
export async function loadCompiledRules(
  tenantId: string,
  keyIds: string[],
  tiers: string[] = [],
): Promise<CompiledRuleSets> {
  const db = getDb();
  const keyRows =
    keyIds.length === 0
      ? []
      : await db.apiKey.findMany({
          where: { tenantId, id: { in: keyIds }, OR: [{ tier: { not: null } }, { billingDay: { not: null } }] },
          select: { id: true, tier: true, billingDay: true },
        });
  const keyTiers = new Map(keyRows.filter((k) => k.tier !== null).map((k) => [k.id, k.tier!]));
  const keyBillingDays = new Map(keyRows.filter((k) => k.billingDay !== null).map((k) => [k.id, k.billingDay!]));
  const tierNames = [...new Set([...tiers, ...keyTiers.values()])];
  const rows = await db.rule.findMany({
    where: {
      tenantId,
      OR: [{ keyId: null, tier: null }, { keyId: { in: keyIds } }, { tier: { in: tierNames } }],
    },
    orderBy: [{ position: "asc" }],
  });
  const refs = await db.ruleRef.findMany({ where: { tenantId }, select: { name: true, ref: true } });
  const refOf = new Map(refs.map((r) => [r.name, refToken(r.ref)]));
  const tenant: CompiledRule[] = [];
  const overrides = new Map<string, CompiledRule[]>(keyIds.map((id) => [id, []]));
  const tierRules = new Map<string, CompiledRule[]>();
  for (const row of rows) {
    const ref = refOf.get(row.name);
    if (!ref) throw new Error(`rule ${row.name} of tenant ${tenantId} has no counter ref`);
    if (row.tier !== null) {
      let list = tierRules.get(row.tier);
      if (!list) tierRules.set(row.tier, (list = []));
      list.push(compileTierRule(fromColumns(row), ref, row.tier));
      continue;
    }
    const compiled = compileRule(fromColumns(row), ref, row.keyId !== null);
    if (row.keyId === null) tenant.push(compiled);
    else overrides.get(row.keyId)?.push(compiled);
  }
  return { tenant, overrides, keyTiers, keyBillingDays, tiers: tierRules };
}

/**
 * A key's effective rules: the tenant's, its tier's, then its overrides, by enforcement's own merge,
 * its month rules anchored at its billing day (billingAnchor.ts) as enforcement anchors them.
 */
export function effectiveRulesOf(sets: CompiledRuleSets, keyId: string): CompiledRule[] {
  const tier = sets.keyTiers.get(keyId);
  return anchorRules(
    layerRules(sets.tenant, tier !== undefined ? sets.tiers.get(tier) : [], sets.overrides.get(keyId) ?? []),
    sets.keyBillingDays.get(keyId),
  );
}
