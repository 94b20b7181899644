/**
 * API keys together with the rules enforcement applies to them, read fresh from Postgres:
 * - `getKeyDetails`: GET /api/admin/keys/{keyId}: the key, its tenant's name, and its rules told
 *   apart (tenant rules, its tier's rules, overrides, and the effective merge with each rule's source);
 * - `loadKeyRules` / `loadLiveKeyRules`: the compiled effective rules of one key (its running grants
 *   and its tier's applied to their limiters, lib/policy/compiled/keyGrants.ts), or of a tenant's
 *   live keys (oldest first, at most `maxKeys`), which the quota views peek.
 * The merge is enforcement's own (lib/policy/compiled/effectiveRules.ts `mergeRules`), never redone here.
 * Unknown key or tenant: AppError `not_found`.
 */
import { getDb } from "../../db/client";
import type { CompiledRule } from "./effectiveRules";
import { AppError } from "../../http/errors";
import { effectiveRulesOf, loadCompiledRules } from "./compiledRules";
import { keyView, type KeyView } from "../keys/keyStore";
import type { KeyDetails, RuleSource } from "../keys/keyAnswers";
import { withGrants } from "./keyGrants";

export interface KeyWithRules {
  key: KeyView & { tenantName: string };
  tenant: CompiledRule[];
  tier: CompiledRule[];
  overrides: CompiledRule[];
  effective: CompiledRule[];
}

export const sourceOf = (rule: CompiledRule): RuleSource =>
  rule.override ? "override" : rule.tier !== undefined ? "tier" : "tenant";

export async function loadKeyRules(keyId: string): Promise<KeyWithRules> {
  const row = await getDb().apiKey.findUnique({
    where: { id: keyId },
    include: { tenant: { select: { name: true } } },
  });
  if (!row) throw new AppError("not_found", `No API key with id ${JSON.stringify(keyId)}.`);
  const nowMs = Date.now();
  const [sets, grants] = await Promise.all([
    loadCompiledRules(row.tenantId, [keyId]),
    getDb().keyGrant.findMany({
      where: { keyId, until: { gt: new Date(nowMs) } },
      select: { id: true, rule: true, units: true, until: true },
    }),
  ]);
  // Its tier's grants too: each key of the tier gets their units (lib/policy/compiled/callerGrants.ts).
  if (row.tier !== null)
    grants.push(
      ...(await getDb().callerGrant.findMany({
        where: { tenantId: row.tenantId, tier: row.tier, until: { gt: new Date(nowMs) } },
        select: { id: true, rule: true, units: true, until: true },
      })),
    );
  const effective = effectiveRulesOf(sets, keyId);
  return {
    key: { ...keyView(row), tenantName: row.tenant.name },
    tenant: sets.tenant,
    tier: row.tier !== null ? (sets.tiers.get(row.tier) ?? []) : [],
    overrides: sets.overrides.get(keyId) ?? [],
    // With its running grants (keyGrants.ts): the quota views peek the limits enforcement applies.
    effective:
      grants.length === 0
        ? effective
        : withGrants(
            effective,
            grants.map((g) => ({
              id: g.id,
              ...(g.rule !== null ? { rule: g.rule } : {}),
              units: g.units,
              untilMs: g.until.getTime(),
            })),
            nowMs,
          ).rules,
  };
}

export async function getKeyDetails(keyId: string): Promise<KeyDetails> {
  const loaded = await loadKeyRules(keyId);
  return {
    ...loaded.key,
    rules: {
      tenant: loaded.tenant.map((r) => r.rule),
      tier: loaded.tier.map((r) => r.rule),
      overrides: loaded.overrides.map((r) => r.rule),
      effective: loaded.effective.map((r) => ({ ...r.rule, source: sourceOf(r) })),
    },
  };
}

export interface LiveKeyRules {
  id: string;
  name: string;
  effective: CompiledRule[];
}

export interface TenantKeyRules {
  tenantId: string;
  /** The tenant's own rules (its `tenant`-scope rules are shared by all its keys). */
  tenantRules: CompiledRule[];
  keys: LiveKeyRules[];
  /** More live keys exist than `maxKeys`. */
  truncated: boolean;
}

export async function loadLiveKeyRules(tenantId: string, maxKeys: number): Promise<TenantKeyRules> {
  const db = getDb();
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
  const rows = await db.apiKey.findMany({
    where: { tenantId, revokedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: maxKeys + 1,
    select: { id: true, name: true },
  });
  const keys = rows.slice(0, maxKeys);
  const sets = await loadCompiledRules(
    tenantId,
    keys.map((k) => k.id),
  );
  return {
    tenantId,
    tenantRules: sets.tenant,
    keys: keys.map((k) => ({ id: k.id, name: k.name, effective: effectiveRulesOf(sets, k.id) })),
    truncated: rows.length > maxKeys,
  };
}
