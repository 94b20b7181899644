/**
 * A tenant's rules and some of its keys' overrides, read from Postgres and compiled exactly as
 * enforcement compiles them (lib/policy/compiled/accessLoader.ts: same `compileRule`, same counter refs),
 * for the admin API's views of a key (its effective rules, its remaining quota).
 *
 * Rules are read before refs: a rule and its ref are written in one transaction and refs are never
 * deleted, so every rule read has its ref. A rule without one is a corrupt store (an Error, 500).
 */
import { getDb } from "../../db/client";
import { compileRule, mergeRules, type CompiledRule } from "./effectiveRules";
import { refToken } from "../rules/ruleRefs";
import { fromColumns } from "../rules/storedRule";

export interface CompiledRuleSets {
  /** The tenant's own rules, in order. */
  tenant: CompiledRule[];
  /** Each requested key's overrides, in order (an empty list when it has none). */
  overrides: Map<string, CompiledRule[]>;
}

export async function loadCompiledRules(tenantId: string, keyIds: string[]): Promise<CompiledRuleSets> {
  const db = getDb();
  const rows = await db.rule.findMany({
    where: { tenantId, OR: [{ keyId: null }, { keyId: { in: keyIds } }] },
    orderBy: [{ position: "asc" }],
  });
  const refs = await db.ruleRef.findMany({ where: { tenantId }, select: { name: true, ref: true } });
  const refOf = new Map(refs.map((r) => [r.name, refToken(r.ref)]));
  const tenant: CompiledRule[] = [];
  const overrides = new Map<string, CompiledRule[]>(keyIds.map((id) => [id, []]));
  for (const row of rows) {
    const ref = refOf.get(row.name);
    if (!ref) throw new Error(`rule ${row.name} of tenant ${tenantId} has no counter ref`);
    const compiled = compileRule(fromColumns(row), ref, row.keyId !== null);
    if (row.keyId === null) tenant.push(compiled);
    else overrides.get(row.keyId)?.push(compiled);
  }
  return { tenant, overrides };
}

/** A key's effective rules: the tenant's, merged with its overrides by enforcement's own merge. */
export function effectiveRulesOf(sets: CompiledRuleSets, keyId: string): CompiledRule[] {
  return mergeRules(sets.tenant, sets.overrides.get(keyId) ?? []);
}
