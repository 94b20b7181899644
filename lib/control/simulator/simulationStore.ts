/**
 * What a simulation reads from Postgres: that the tenant exists, its rules, the overrides of the
 * keys in the trace and the rules of the tiers its callers were in, compiled exactly as enforcement compiles them (lib/policy/compiled/compiledRules.ts: same
 * `compileRule`, same counter refs), every rule name's counter ref, the tenant's access lists, and
 * key names for the answer.
 * An interface so the simulator can be tested with injected rules.
 */
import { getDb } from "../../db/client";
import type { CompiledRule } from "../../policy/compiled/effectiveRules";
import { loadCompiledRules } from "../../policy/compiled/compiledRules";
import { listRuleRefs } from "../../policy/rules/ruleRefs";
import { getTenant } from "../../policy/tenants/tenantStore";
import { getAccessLists } from "../../policy/access/accessListStore";
import type { AccessLists } from "../../policy/access/accessListSchema";

export interface TenantRuleSets {
  tenant: CompiledRule[];
  /** Overrides per key id (absent or empty: none). */
  overrides: Map<string, CompiledRule[]>;
  /** Rules per tier (lib/policy/tiers; absent or empty: none). */
  tiers?: Map<string, CompiledRule[]>;
  /** Counter ref per rule name the tenant ever had. */
  refs: Map<string, string>;
}

export interface SimulationStore {
  /** Throws AppError `not_found` for an unknown tenant. */
  assertTenant(tenantId: string): Promise<void>;
  ruleSets(tenantId: string, keyIds: string[], tiers?: string[]): Promise<TenantRuleSets>;
  keyNames(keyIds: string[]): Promise<Map<string, string>>;
  /** The tenant's access lists as stored now (absent: the replay applies none). */
  accessLists?(tenantId: string): Promise<AccessLists>;
}

export const prismaSimulationStore: SimulationStore = {
  async assertTenant(tenantId) {
    await getTenant(tenantId);
  },
  async ruleSets(tenantId, keyIds, tiers = []) {
    const [sets, refs] = await Promise.all([loadCompiledRules(tenantId, keyIds, tiers), listRuleRefs(tenantId)]);
    return {
      tenant: sets.tenant,
      overrides: sets.overrides,
      tiers: sets.tiers,
      refs: new Map(refs.map((r) => [r.name, r.ref])),
    };
  },
  accessLists: getAccessLists,
  async keyNames(keyIds) {
    if (keyIds.length === 0) return new Map();
    const rows = await getDb().apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } });
    return new Map(rows.map((row) => [row.id, row.name]));
  },
};
