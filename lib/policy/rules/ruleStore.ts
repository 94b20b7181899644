/**
 * Rule lists of tenants, keys and tiers (lib/policy/tiers): read, and replace a whole list atomically (one transaction
 * with its audit event; `replaceRulesIn` joins a caller's transaction, e.g. a revert's). Each rule name gets a counter ref (see lib/policy/rules/ruleRefs.ts).
 * Callers announce the change to every instance after the transaction commits.
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { AppError } from "../../http/errors";
import { recordAudit, type Actor, type AuditEventView } from "../audit/auditLog";
import { ensureRuleRefs } from "./ruleRefs";
import type { Rule } from "./ruleSchema";
import { fromColumns, toColumns } from "./storedRule";

type Tx = Prisma.TransactionClient;

export type RuleOwner =
  | { kind: "tenant"; tenantId: string }
  | { kind: "key"; keyId: string }
  /** A tier's rules: `tier` must have passed tierNameSchema (lib/policy/tiers/tierName.ts). */
  | { kind: "tier"; tenantId: string; tier: string };

interface ResolvedOwner {
  tenantId: string;
  keyId: string | null;
  tier: string | null;
  target: string;
}

/** The audit target of a tier's rules (lib/policy/audit/revertPlan.ts reads it back). */
export const tierTarget = (tenantId: string, tier: string) => `tier:${tenantId}/${tier}`;

const notFound = (owner: RuleOwner) =>
  owner.kind === "key"
    ? new AppError("not_found", `No API key with id ${JSON.stringify(owner.keyId)}.`)
    : new AppError("not_found", `No tenant with id ${JSON.stringify(owner.tenantId)}.`);

/** Finds the owner; with `lock`, holds its tenant row so concurrent writers take turns. */
async function resolveOwner(tx: Tx, owner: RuleOwner, lock: boolean): Promise<ResolvedOwner> {
  let tenantId: string;
  let keyId: string | null = null;
  if (owner.kind !== "key") {
    tenantId = owner.tenantId;
  } else {
    const key = await tx.apiKey.findUnique({ where: { id: owner.keyId }, select: { tenantId: true, revokedAt: true } });
    if (!key) throw notFound(owner);
    if (lock && key.revokedAt)
      throw new AppError("conflict", `API key ${owner.keyId} is revoked; its rules can no longer change.`);
    tenantId = key.tenantId;
    keyId = owner.keyId;
  }
  const rows = lock
    ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Tenant" WHERE id = ${tenantId} FOR UPDATE`
    : await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Tenant" WHERE id = ${tenantId}`;
  if (rows.length === 0) throw notFound(owner);
  if (owner.kind === "tier") return { tenantId, keyId, tier: owner.tier, target: tierTarget(tenantId, owner.tier) };
  return { tenantId, keyId, tier: null, target: keyId ? `key:${keyId}` : `tenant:${tenantId}` };
}

async function readRules(tx: Tx, owner: ResolvedOwner): Promise<Rule[]> {
  const rows = await tx.rule.findMany({
    where: { tenantId: owner.tenantId, keyId: owner.keyId, tier: owner.tier },
    orderBy: { position: "asc" },
  });
  return rows.map(fromColumns);
}

export async function getRules(owner: RuleOwner): Promise<Rule[]> {
  return getDb().$transaction(async (tx) => readRules(tx, await resolveOwner(tx, owner, false)));
}

/** How a change is audited when it is not a plain PUT (a revert: lib/control/admin/revertChange.ts). */
export interface ChangeNote {
  action?: string;
  revertOf?: string;
}

export interface ReplacedRules {
  tenantId: string;
  rules: Rule[];
  audit: AuditEventView;
}

/**
 * Replaces the owner's whole list within the caller's transaction; returns the list as stored, the
 * tenant to announce and the audit event written. `rules` must have passed the owner's schema.
 */
export async function replaceRulesIn(
  tx: Tx,
  actor: Actor,
  owner: RuleOwner,
  rules: Rule[],
  note: ChangeNote = {},
): Promise<ReplacedRules> {
  const resolved = await resolveOwner(tx, owner, true);
  const before = await readRules(tx, resolved);
  await ensureRuleRefs(
    tx,
    resolved.tenantId,
    rules.map((r) => r.name),
  );
  await tx.rule.deleteMany({ where: { tenantId: resolved.tenantId, keyId: resolved.keyId, tier: resolved.tier } });
  await tx.rule.createMany({
    data: rules.map((rule, position) => ({
      ...toColumns(rule),
      tenantId: resolved.tenantId,
      keyId: resolved.keyId,
      tier: resolved.tier,
      position,
    })),
  });
  const after = await readRules(tx, resolved);
  if (owner.kind === "tenant") {
    // Identifier overrides belong to a tenant identifier rule: gone (or no longer identifier) with it.
    const kept = after.filter((r) => r.scope === "identifier").map((r) => r.name);
    await tx.identifierOverride.deleteMany({ where: { tenantId: resolved.tenantId, rule: { notIn: kept } } });
  }
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? "rules.replace",
    target: resolved.target,
    tenantId: resolved.tenantId,
    before,
    after,
    revertOf: note.revertOf,
  });
  return { tenantId: resolved.tenantId, rules: after, audit };
}

/** Replaces the owner's whole list in its own transaction (PUT .../rules). */
export async function replaceRules(actor: Actor, owner: RuleOwner, rules: Rule[]): Promise<ReplacedRules> {
  return getDb().$transaction((tx) => replaceRulesIn(tx, actor, owner, rules));
}
