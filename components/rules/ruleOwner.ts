/**
 * Whose rule list the editor edits: a tenant's rules or a key's overrides. Each owner has its
 * admin API path and the very schema its PUT route validates with (lib/control/admin/schemas.ts).
 */
import { keyRulesSchema, tenantRulesSchema } from "@/lib/control/admin/schemas";
import { SCOPES, type Scope } from "@/lib/limiter/types";

export type RuleOwner = { kind: "tenant"; tenantId: string } | { kind: "key"; keyId: string };

export function rulesPath(owner: RuleOwner): string {
  return owner.kind === "tenant"
    ? `/api/admin/tenants/${encodeURIComponent(owner.tenantId)}/rules`
    : `/api/admin/keys/${encodeURIComponent(owner.keyId)}/rules`;
}

export function ruleListSchemaFor(owner: RuleOwner) {
  return owner.kind === "tenant" ? tenantRulesSchema : keyRulesSchema;
}

/**
 * A key override may not charge the whole tenant or an identifier, nor answer Envoy (a call carries
 * no API key); offering them would only earn a 422.
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
  return owner.kind === "tenant" ? ["tenant", owner.tenantId, "rules"] : ["key", owner.keyId, "rules"];
}

/** Query keys under which the owner's other views live (a key's effective rules and quota). */
export function ownerQueryPrefix(owner: RuleOwner): readonly unknown[] {
  return owner.kind === "tenant" ? ["tenant", owner.tenantId] : ["key", owner.keyId];
}
