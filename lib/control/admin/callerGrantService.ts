/**
 * Grants for JWT subjects and tiers (issue 33, contract "Quotas, grants and usage"; the key's own
 * are grantService.ts): extra units for a tenant's caller on a rule until a date.
 * - `createCallerGrant`: POST /api/admin/tenants/{tenantId}/grants `{ units, rule?, until?, subject }`
 *   or `{ ..., tier }` → the grant. The rule must be a `key`-scoped rule that can apply to the
 *   caller (422 otherwise; absent: every such rule, and there must be one): for a tier, the tenant's
 *   rules with the tier's; for a subject, the tenant's or any tier's (its tier comes with each
 *   token). `until` defaults to the end of the rule's current window or period (for every rule: the
 *   latest of their ends). Audited as `tenant.grant` on `tenant:<id>` (revertible: the revert
 *   deletes the grant).
 * - `listCallerGrants`: GET, the tenant's running subject and tier grants, soonest end first,
 *   optionally only a subject's or a tier's.
 * - `deleteCallerGrant`: DELETE .../grants/{grantId}; audited as `tenant.grant.delete`.
 * Each change also deletes the tenant's expired grants (ignored when loaded anyway:
 * lib/policy/compiled/callerGrants.ts). The caller announces the tenant so every instance reloads
 * within 1 s. Unknown tenant or grant: 404.
 */
import type { z } from "zod";
import { getDb } from "../../db/client";
import { AppError } from "../../http/errors";
import { recordAudit, type Actor } from "../../policy/audit/auditLog";
import { loadCompiledRules } from "../../policy/compiled/compiledRules";
import { layerRules } from "../../policy/compiled/effectiveRules";
import type { LimiterRule } from "../../limiter/types";
import { windowEndOf } from "./grantService";
import type { callerGrantSchema } from "./schemas";
import type { CallerGrantView } from "./grantAnswers";

type Row = Omit<CallerGrantView, "until" | "createdAt"> & { until: Date; createdAt: Date };

export const callerGrantView = (row: Row): CallerGrantView => ({
  id: row.id,
  tenantId: row.tenantId,
  subject: row.subject,
  tier: row.tier,
  rule: row.rule,
  units: row.units,
  until: row.until.toISOString(),
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
});

async function tenantMustExist(tenantId: string): Promise<void> {
  const tenant = await getDb().tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
}

/** The `key`-scoped rules that can apply to the caller: a tier's callers', or any caller's (a subject). */
async function candidateRules(tenantId: string, tier: string | undefined): Promise<LimiterRule[]> {
  const tierRows = await getDb().rule.findMany({
    where: { tenantId, tier: tier ?? { not: null } },
    distinct: ["tier"],
    select: { tier: true },
  });
  const sets = await loadCompiledRules(
    tenantId,
    [],
    tierRows.map((r) => r.tier!),
  );
  const layered =
    tier !== undefined
      ? [layerRules(sets.tenant, sets.tiers.get(tier) ?? [], [])]
      : [sets.tenant, ...[...sets.tiers.values()].map((own) => layerRules(sets.tenant, own, []))];
  return layered
    .flat()
    .map((r) => r.limiter)
    .filter((r) => r.scope === "key");
}

export async function createCallerGrant(
  actor: Actor,
  tenantId: string,
  input: z.output<typeof callerGrantSchema>,
  nowMs: number = Date.now(),
): Promise<CallerGrantView> {
  await tenantMustExist(tenantId);
  const keyRules = await candidateRules(tenantId, input.tier);
  const targets = input.rule === undefined ? keyRules : keyRules.filter((r) => r.name === input.rule);
  const who = input.tier !== undefined ? `tier ${JSON.stringify(input.tier)}` : "a JWT caller";
  if (targets.length === 0)
    throw new AppError("invalid", `The grant names no key-scoped rule of ${who}.`, {
      errors: {
        rule: [
          input.rule === undefined
            ? `${who} has no key-scoped rule to grant units on`
            : `no key-scoped rule named ${JSON.stringify(input.rule)} applies to ${who}`,
        ],
      },
    });
  const until = input.until ? new Date(input.until) : new Date(Math.max(...targets.map((r) => windowEndOf(r, nowMs))));
  return getDb().$transaction(async (tx) => {
    await tx.callerGrant.deleteMany({ where: { tenantId, until: { lte: new Date(nowMs) } } });
    const created = await tx.callerGrant.create({
      data: {
        tenantId,
        subject: input.subject ?? null,
        tier: input.tier ?? null,
        rule: input.rule ?? null,
        units: input.units,
        until,
        createdBy: actor.id,
      },
    });
    const view = callerGrantView(created);
    await recordAudit(tx, actor, { action: "tenant.grant", target: `tenant:${tenantId}`, tenantId, after: view });
    return view;
  });
}

export async function listCallerGrants(
  tenantId: string,
  only: { subject?: string; tier?: string } = {},
  nowMs: number = Date.now(),
): Promise<CallerGrantView[]> {
  await tenantMustExist(tenantId);
  const rows = await getDb().callerGrant.findMany({
    where: {
      tenantId,
      until: { gt: new Date(nowMs) },
      ...(only.subject !== undefined ? { subject: only.subject } : {}),
      ...(only.tier !== undefined ? { tier: only.tier } : {}),
    },
    orderBy: [{ until: "asc" }, { createdAt: "asc" }],
  });
  return rows.map(callerGrantView);
}

export async function deleteCallerGrant(actor: Actor, tenantId: string, grantId: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    const row = await tx.callerGrant.findFirst({ where: { id: grantId, tenantId } });
    if (!row)
      throw new AppError("not_found", `No grant ${JSON.stringify(grantId)} of tenant ${JSON.stringify(tenantId)}.`);
    await tx.callerGrant.delete({ where: { id: row.id } });
    await tx.callerGrant.deleteMany({ where: { tenantId, until: { lte: new Date() } } });
    await recordAudit(tx, actor, {
      action: "tenant.grant.delete",
      target: `tenant:${tenantId}`,
      tenantId,
      before: callerGrantView(row),
    });
  });
}
