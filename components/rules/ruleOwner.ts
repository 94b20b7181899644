/**
 * Whose rule list the editor edits: a tenant's rules, a key's overrides or a tier's rules. Each
 * owner has its admin API path and the very schema its PUT route validates with
 * (lib/control/admin/schemas.ts).
 */
import { keyRulesSchema, tenantRulesSchema, tierRulesSchema } from "@/lib/control/admin/schemas";
import { SCOPES, type Scope } from "@/lib/limiter/types";
import type { RuleOwner } from "@/lib/policy/rules/ruleStore";

/** Declared once, by the store that reads and writes rule lists (type-only: nothing of it is bundled). */
export type { RuleOwner };

export function rulesPath(owner: RuleOwner): string {
  if (owner.kind === "tier")
    return `/api/admin/tenants/${encodeURIComponent(owner.tenantId)}/tiers/${encodeURIComponent(owner.tier)}/rules`;
  return owner.kind === "tenant"
    ? `/api/admin/tenants/${encodeURIComponent(owner.tenantId)}/rules`
    : `/api/admin/keys/${encodeURIComponent(owner.keyId)}/rules`;
}

export function ruleListSchemaFor(owner: RuleOwner) {
  return owner.kind === "tenant" ? tenantRulesSchema : owner.kind === "tier" ? tierRulesSchema : keyRulesSchema;
}

/**
 * A key override or a tier rule may not charge the whole tenant or an identifier, nor answer Envoy
 * (a call carries no caller); offering them would only earn a 422.
 */
export function scopesFor(owner: RuleOwner): readonly Scope[] {
  return owner.kind === "tenant"
    ? SCOPES
    : SCOPES.filter((s) => s !== "tenant" && s !== "identifier" && s !== "descriptor");
}

export const SCOPE_HINT: Record<Scope, string> = {
  key: "each API key has its own counter",
  tenant: "all keys of the tenant share one counter",
  ip: "each client IP, within the tenant",
  identifier: "only through POST /api/v1/check, per caller-given identifier",
  header: "each value of a request header (name it below)",
  query: "each value of a query parameter (name it below)",
  descriptor: "Envoy's rate limit service: per descriptor Envoy sends (docs/envoy.md); tiers do not apply",
};

/** React Query key of an owner's rule list. */
export function rulesQueryKey(owner: RuleOwner): readonly unknown[] {
  if (owner.kind === "tier") return ["tenant", owner.tenantId, "tiers", owner.tier, "rules"];
  return owner.kind === "tenant" ? ["tenant", owner.tenantId, "rules"] : ["key", owner.keyId, "rules"];
}

/**
 * Query keys under which the owner's other views live (a key's effective rules and quota; a tier's
 * list of tiers and, through the tenant, its keys' views).
 */
export function ownerQueryPrefix(owner: RuleOwner): readonly unknown[] {
  return owner.kind === "key" ? ["key", owner.keyId] : ["tenant", owner.tenantId];
}
