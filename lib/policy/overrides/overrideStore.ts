/**
 * The overrides of a tenant's `identifier` rule in Postgres: read, and replace the whole list (PUT)
 * in ONE transaction with its audit event (`overrides.replace`, target `tenant:<id>`, before and
 * after `{ rule, overrides }`). `replaceOverridesIn` joins a caller's transaction (a revert's:
 * lib/control/admin/revertChange.ts). Callers announce the tenant after the commit, so every instance's
 * access cache (lib/policy/compiled/accessLoader.ts) picks the change up.
 *
 * Errors (AppError `not_found`): an unknown tenant, no rule of that name, or a rule of another
 * scope (overrides exist only for `identifier` rules, like POST /api/v1/check). `invalid` (422):
 * an override of a `sliding_log` rule above that algorithm's limit cap, named by field.
 * Overrides belong to the rule name: replacing the tenant's rules without that identifier rule
 * deletes them (lib/policy/rules/ruleStore.ts).
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type Actor, type AuditEventView } from "../audit/auditLog";
import { AppError } from "../../http/errors";
import { MAX_SLIDING_LOG_LIMIT } from "../../common/fieldLimits";
import type { IdentifierOverride, RuleOverrides } from "./overrideSchema";

type Tx = Prisma.TransactionClient;

export interface ReplacedOverrides extends RuleOverrides {
  tenantId: string;
  audit: AuditEventView;
}

export interface OverrideChangeNote {
  action?: string;
  revertOf?: string;
}

interface OverrideRow {
  identifier: string;
  limit: number;
  windowMs: bigint | null;
  burst: number | null;
}

export function overrideFromRow(row: OverrideRow): IdentifierOverride {
  return {
    identifier: row.identifier,
    limit: row.limit,
    ...(row.windowMs === null ? {} : { windowMs: Number(row.windowMs) }),
    ...(row.burst === null ? {} : { burst: row.burst }),
  };
}

/** The tenant's identifier rule `rule` (its algorithm); `lock` holds the tenant row so writers take turns. */
async function identifierRule(tx: Tx, tenantId: string, rule: string, lock: boolean): Promise<{ algorithm: string }> {
  const tenant = lock
    ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Tenant" WHERE id = ${tenantId} FOR UPDATE`
    : await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Tenant" WHERE id = ${tenantId}`;
  if (tenant.length === 0) throw new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
  const row = await tx.rule.findFirst({
    where: { tenantId, keyId: null, tier: null, name: rule },
    select: { scope: true, algorithm: true },
  });
  if (!row) throw new AppError("not_found", `This tenant has no rule named ${JSON.stringify(rule)}.`);
  if (row.scope !== "identifier")
    throw new AppError(
      "not_found",
      `Rule ${JSON.stringify(rule)} has scope ${row.scope}; only identifier rules have overrides.`,
    );
  return { algorithm: row.algorithm };
}

async function readOverrides(tx: Tx, tenantId: string, rule: string): Promise<IdentifierOverride[]> {
  const rows = await tx.identifierOverride.findMany({ where: { tenantId, rule }, orderBy: { position: "asc" } });
  return rows.map(overrideFromRow);
}

export async function getOverrides(tenantId: string, rule: string): Promise<RuleOverrides> {
  return getDb().$transaction(async (tx) => {
    await identifierRule(tx, tenantId, rule, false);
    return { rule, overrides: await readOverrides(tx, tenantId, rule) };
  });
}

/** `overrides` must have passed identifierOverrideListSchema. */
export async function replaceOverridesIn(
  tx: Tx,
  actor: Actor,
  tenantId: string,
  rule: string,
  overrides: IdentifierOverride[],
  note: OverrideChangeNote = {},
): Promise<ReplacedOverrides> {
  const { algorithm } = await identifierRule(tx, tenantId, rule, true);
  if (algorithm === "sliding_log") {
    const errors: Record<string, string[]> = {};
    overrides.forEach((o, i) => {
      if (o.limit > MAX_SLIDING_LOG_LIMIT)
        errors[`${i}.limit`] = [
          `limit must be at most ${MAX_SLIDING_LOG_LIMIT.toLocaleString("en")} for a sliding_log rule`,
        ];
    });
    if (Object.keys(errors).length > 0) throw new AppError("invalid", "The overrides are invalid.", { errors });
  }
  const before = await readOverrides(tx, tenantId, rule);
  await tx.identifierOverride.deleteMany({ where: { tenantId, rule } });
  await tx.identifierOverride.createMany({
    data: overrides.map((o, position) => ({
      tenantId,
      rule,
      position,
      identifier: o.identifier,
      limit: o.limit,
      windowMs: o.windowMs === undefined ? null : BigInt(o.windowMs),
      burst: o.burst ?? null,
    })),
  });
  const after = await readOverrides(tx, tenantId, rule);
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? "overrides.replace",
    target: `tenant:${tenantId}`,
    tenantId,
    before: { rule, overrides: before },
    after: { rule, overrides: after },
    revertOf: note.revertOf,
  });
  return { tenantId, rule, overrides: after, audit };
}

export async function replaceOverrides(
  actor: Actor,
  tenantId: string,
  rule: string,
  overrides: IdentifierOverride[],
): Promise<ReplacedOverrides> {
  return getDb().$transaction((tx) => replaceOverridesIn(tx, actor, tenantId, rule, overrides));
}
