/**
 * The admin service behind the counter resets:
 * - `resetKeyCounters(deps, actor, keyId)`: DELETE /api/admin/keys/{keyId}/counters;
 * - `resetIdentifierCounters(deps, actor, tenantId, rule, identifier)`:
 *   DELETE /api/admin/tenants/{tenantId}/rules/{rule}/counters?identifier=...
 *
 * Contract
 * - The rules come fresh from Postgres (a key's effective rules, or the tenant's rules); the
 *   counter names from lib/limiter/counterReset.ts. The Redis DEL runs inside the transaction that
 *   writes the audit event (`key.counters.reset` / `identifier.counters.reset`, `after` naming the
 *   rules reset): a reset Redis could not make is not audited, and is answered 503
 *   (`limiter_unavailable`), never a 204.
 * - Then the caller announces the reset (services().announceReset, over the change bus): every
 *   instance drops its cached refusals of that tenant, so the next request is decided by Redis again.
 * - Unknown key or tenant: 404; unknown rule, or a rule that is not `identifier`-scoped: 404.
 * - Not revertible: counters cannot be restored (lib/policy/audit/revertPlan.ts says so).
 */
import type { Actor } from "../../policy/audit/auditLog";
import { recordAudit } from "../../policy/audit/auditLog";
import { loadKeyRules } from "../../policy/compiled/keyRules";
import { getDb } from "../../db/client";
import { identifierCounterKeys, keyCounterKeys } from "../../limiter/counterReset";
import { AppError } from "../../http/errors";
import { loadCompiledRules } from "../../policy/compiled/compiledRules";

export interface CounterResetDeps {
  /** Deletes the named keys (one hash tag: one Cluster slot); rejects when Redis cannot answer. */
  deleteKeys(keys: string[]): Promise<number>;
  prefix: string;
}

async function deleteOrUnavailable(deps: CounterResetDeps, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  try {
    return await deps.deleteKeys(keys);
  } catch (error) {
    throw new AppError(
      "limiter_unavailable",
      `The counters could not be reset: Redis did not answer (${(error as Error).message}). Nothing was changed; retry shortly.`,
      { headers: { "Retry-After": "5" } },
    );
  }
}

export interface KeyReset {
  tenantId: string;
  /** Names of the key-scoped rules whose counters were reset. */
  rules: string[];
}

export async function resetKeyCounters(deps: CounterResetDeps, actor: Actor, keyId: string): Promise<KeyReset> {
  const loaded = await loadKeyRules(keyId);
  const tenantId = loaded.key.tenantId;
  const rules = loaded.effective.map((r) => r.limiter).filter((r) => r.scope === "key");
  const keys = keyCounterKeys(deps.prefix, rules, tenantId, keyId);
  await getDb().$transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: "key.counters.reset",
      target: `key:${keyId}`,
      tenantId,
      after: { rules: rules.map((r) => r.name) },
    });
    await deleteOrUnavailable(deps, keys);
  });
  return { tenantId, rules: rules.map((r) => r.name) };
}

export async function resetIdentifierCounters(
  deps: CounterResetDeps,
  actor: Actor,
  tenantId: string,
  ruleName: string,
  identifier: string,
): Promise<void> {
  const tenant = await getDb().tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
  const sets = await loadCompiledRules(tenantId, []);
  const rule = sets.tenant.find((r) => r.rule.name === ruleName && r.rule.scope === "identifier");
  if (!rule)
    throw new AppError(
      "not_found",
      `Tenant ${tenantId} has no identifier-scope rule named ${JSON.stringify(ruleName)}.`,
    );
  const keys = identifierCounterKeys(deps.prefix, rule.limiter, tenantId, identifier);
  await getDb().$transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: "identifier.counters.reset",
      target: `tenant:${tenantId}`,
      tenantId,
      after: { rule: ruleName, identifier },
    });
    await deleteOrUnavailable(deps, keys);
  });
}
