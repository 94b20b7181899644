/**
 * Grants (issue 33, contract "Quotas, grants and usage"): extra units for one key on a rule.
 * - `createGrant`: POST /api/admin/keys/{keyId}/grants `{ units, rule?, until? }` → the grant. The
 *   rule must be a `key`-scoped rule that applies to the key (422 otherwise; absent: every such
 *   rule, and the key must have one). `until` defaults to the end of the rule's current window or
 *   period (for every rule: the latest of their ends). Audited as `key.grant` (revertible: the
 *   revert deletes the grant).
 * - `listGrants`: GET, the key's grants still running, soonest end first.
 * - `deleteGrant`: DELETE .../grants/{grantId}; audited as `key.grant.delete` (revertible while
 *   its `until` is ahead: the revert creates it again).
 * Each change also deletes the tenant's expired grants (they are ignored when loaded anyway:
 * lib/policy/compiled/keyGrants.ts). The caller announces the tenant so every instance reloads
 * within 1 s. Unknown key or grant: 404; a revoked key: 409.
 */
import type { z } from "zod";
import { getDb } from "../../db/client";
import { AppError } from "../../http/errors";
import { recordAudit, type Actor } from "../../policy/audit/auditLog";
import { loadKeyRules } from "../../policy/compiled/keyRules";
import { periodAt } from "../../limiter/calendar";
import type { LimiterRule } from "../../limiter/types";
import type { grantSchema } from "./schemas";
import type { GrantView } from "./grantAnswers";

type GrantRow = {
  id: string;
  keyId: string;
  rule: string | null;
  units: number;
  until: Date;
  createdAt: Date;
  createdBy: string;
};

const view = (row: GrantRow): GrantView => ({
  id: row.id,
  keyId: row.keyId,
  rule: row.rule,
  units: row.units,
  until: row.until.toISOString(),
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
});

/** When the window (or calendar period) of `rule` holding `nowMs` ends. */
export function windowEndOf(rule: LimiterRule, nowMs: number): number {
  if (rule.period) return periodAt(rule.period, nowMs).endMs;
  if (rule.algorithm === "fixed_window" || rule.algorithm === "sliding_window")
    return (Math.floor(nowMs / rule.windowMs) + 1) * rule.windowMs;
  return nowMs + rule.windowMs;
}

export async function createGrant(
  actor: Actor,
  keyId: string,
  input: z.output<typeof grantSchema>,
  nowMs: number = Date.now(),
): Promise<{ tenantId: string; grant: GrantView }> {
  const loaded = await loadKeyRules(keyId);
  if (loaded.key.revokedAt) throw new AppError("conflict", "The key is revoked: a grant would never be used.");
  const keyRules = loaded.effective.map((r) => r.limiter).filter((r) => r.scope === "key");
  const targets = input.rule === undefined ? keyRules : keyRules.filter((r) => r.name === input.rule);
  if (targets.length === 0)
    throw new AppError("invalid", "The grant names no key-scoped rule of this key.", {
      errors: {
        rule: [
          input.rule === undefined
            ? "the key has no key-scoped rule to grant units on"
            : `no key-scoped rule named ${JSON.stringify(input.rule)} applies to this key`,
        ],
      },
    });
  const until = input.until ? new Date(input.until) : new Date(Math.max(...targets.map((r) => windowEndOf(r, nowMs))));
  const tenantId = loaded.key.tenantId;
  const row = await getDb().$transaction(async (tx) => {
    await tx.keyGrant.deleteMany({ where: { tenantId, until: { lte: new Date(nowMs) } } });
    const created = await tx.keyGrant.create({
      data: { tenantId, keyId, rule: input.rule ?? null, units: input.units, until, createdBy: actor.id },
    });
    await recordAudit(tx, actor, {
      action: "key.grant",
      target: `key:${keyId}`,
      tenantId,
      after: view(created),
    });
    return created;
  });
  return { tenantId, grant: view(row) };
}

export async function listGrants(keyId: string, nowMs: number = Date.now()): Promise<GrantView[]> {
  const key = await getDb().apiKey.findUnique({ where: { id: keyId }, select: { id: true } });
  if (!key) throw new AppError("not_found", `No API key with id ${JSON.stringify(keyId)}.`);
  const rows = await getDb().keyGrant.findMany({
    where: { keyId, until: { gt: new Date(nowMs) } },
    orderBy: [{ until: "asc" }, { createdAt: "asc" }],
  });
  return rows.map(view);
}

export async function deleteGrant(actor: Actor, keyId: string, grantId: string): Promise<{ tenantId: string }> {
  return getDb().$transaction(async (tx) => {
    const row = await tx.keyGrant.findFirst({ where: { id: grantId, keyId } });
    if (!row)
      throw new AppError("not_found", `No grant ${JSON.stringify(grantId)} of API key ${JSON.stringify(keyId)}.`);
    await tx.keyGrant.delete({ where: { id: row.id } });
    await tx.keyGrant.deleteMany({ where: { tenantId: row.tenantId, until: { lte: new Date() } } });
    await recordAudit(tx, actor, {
      action: "key.grant.delete",
      target: `key:${keyId}`,
      tenantId: row.tenantId,
      before: view(row),
    });
    return { tenantId: row.tenantId };
  });
}
