/**
 * The rules a caller's requests are checked against, compiled (lib/policy/compiled), from the
 * access cache in ONE call per request: a key's own rules (the tenant's with its overrides applied:
 * accessLoader.ts KeyAccess.rules), else, for a JWT or anonymous caller on a tenant's host, the
 * tenant's. This is where precedence between rule owners lives (tenant < key; a tier between them
 * slots in here), so admission (lib/dataplane/admission/admit.ts) never picks rules itself.
 * Never reads Postgres; answers the compiled arrays as cached (no copy per request).
 */
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { CompiledRule } from "../../policy/compiled/effectiveRules";
import type { Client } from "./outcome";

const NO_RULES: CompiledRule[] = [];

export function callerRules(access: AccessCache, tenantId: string, caller: Client): CompiledRule[] {
  if (caller.key) return caller.key.rules;
  return access.tenant(tenantId)?.rules ?? NO_RULES;
}
