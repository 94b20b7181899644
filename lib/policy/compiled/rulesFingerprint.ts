/**
 * A fingerprint of everything a tenant's compiled rules decide with: its rules, its tiers' rules and
 * each live key's tier and overrides (every stored field, in order, with the counter refs). Two loads
 * of unchanged rules give the same string; any edit, override, tier, key put in another tier, new or
 * removed key with overrides or a tier, or ref change gives another. "" for a tenant that is gone. Used to keep cached refusals across periodic reloads that
 * changed nothing (lib/limiter/refusalCache.ts).
 */
import type { CompiledRule } from "./effectiveRules";
import type { TenantAccess } from "./accessLoader";

const ruleParts = (rules: CompiledRule[]) => rules.map((r) => [r.limiter.ref, r.override, r.rule]);
const byName = <T>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export function rulesFingerprint(tenant: TenantAccess | null | undefined): string {
  if (!tenant) return "";
  const keys = [...tenant.keys.values()]
    .filter((key) => key.overrides.length > 0 || key.tier !== undefined)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((key) =>
      key.tier === undefined ? [key.id, ruleParts(key.overrides)] : [key.id, ruleParts(key.overrides), key.tier],
    );
  if (!tenant.tiers) return JSON.stringify([ruleParts(tenant.rules), keys]);
  const tiers = [...tenant.tiers].sort(byName).map(([name, tier]) => [name, ruleParts(tier.own)]);
  return JSON.stringify([ruleParts(tenant.rules), keys, tiers]);
}
