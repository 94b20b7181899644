/**
 * The rules a caller's requests are checked against, compiled (lib/policy/compiled), from the
 * access cache in ONE call per request: a key's own rules (the tenant's with its overrides applied:
 * accessLoader.ts KeyAccess.rules, with its tier's between: tenant < tier < key), else, for a JWT
 * caller on a tenant's host, the rules of the tier its `tierClaim` names (the tenant's with the
 * tier's applied), else the tenant's. Precedence between rule owners is compiled at load
 * (AccessCache.rulesFor), so admission (lib/dataplane/admission/admit.ts) never picks rules itself.
 * Never reads Postgres; answers the compiled arrays as cached (no copy per request).
 */
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { CompiledRule } from "../../policy/compiled/effectiveRules";
import type { Client } from "./outcome";

export function callerRules(access: AccessCache, tenantId: string, caller: Client): CompiledRule[] {
  return access.rulesFor(tenantId, caller);
}
