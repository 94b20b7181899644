/**
 * A fingerprint of everything a tenant's compiled rules decide with: its rules and each live key's
 * overrides (every stored field, in order, with the counter refs). Two loads of unchanged rules give
 * the same string; any edit, override, new or removed key with overrides, or ref change gives
 * another. "" for a tenant that is gone. Used to keep cached refusals across periodic reloads that
 * changed nothing (lib/limiter/refusalCache.ts).
 */
import type { CompiledRule } from "./effectiveRules";
import type { TenantAccess } from "./accessLoader";

const ruleParts = (rules: CompiledRule[]) => rules.map((r) => [r.limiter.ref, r.override, r.rule]);

export function rulesFingerprint(tenant: TenantAccess | null | undefined): string {
  if (!tenant) return "";
  const keys = [...tenant.keys.values()]
    .filter((key) => key.overrides.length > 0)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((key) => [key.id, ruleParts(key.overrides)]);
  return JSON.stringify([ruleParts(tenant.rules), keys]);
}
