/**
 * POST /api/admin/audit/{auditId}/revert: restores the `before` state of a change as a NEW change,
 * in ONE transaction with its own audit event (action `<base action>.revert`, `revertOf` = the
 * reverted event's id, before/after of the revert itself). The caller announces the tenant.
 *
 * - Rules (a tenant's list or a key's overrides): the event's `before` list goes through the same
 *   schema and store code as PUT .../rules. Reverting the same event again is allowed: it
 *   re-applies that list once more (another audited change), whatever happened in between.
 * - Key revocation: never undone, 409 saying why and what to do instead (a revoked key's secret
 *   may have leaked; lib/policy/audit/revertPlan.ts). Reverting an un-revoke recorded before that rule
 *   revokes the key again (409 if it already is revoked).
 * - A grant (a key's, a JWT subject's or a tier's): reverting its creation ends it (409 once ended).
 * - Key expiry: sets the event's `before` expiry again (409 when the key is revoked since, or
 *   already has that expiry). Key tier: likewise with the `before` tier.
 * - A tier's rules (PUT or DELETE .../tiers/{tier}/rules): the event's `before` list, through the
 *   same schema as PUT.
 * - Upstream (PUT or DELETE .../upstream): the event's `before` upstream is set again through the
 *   same schema as PUT, or, when there was none, the upstream is removed (409 if there is none now).
 *   A signing secret is never in the audit log: a signed `before` keeps the secret stored now, and
 *   is a 409 when none is (lib/policy/upstreams/upstreamStore.ts).
 * - Access lists (PUT .../access): the event's `before` lists are set again through the same
 *   schema as PUT.
 * - Identifier overrides: the event's `before` list of that rule is set again (409 when the rule is
 *   gone or no longer an identifier rule).
 * - Identity (PUT .../identity): the event's `before` hosts and callers are set again through the
 *   same schema as PUT (409 when one of its hosts is another tenant's now).
 * - 409 `conflict` with the reason for everything else: an action that cannot be reverted (see
 *   lib/policy/audit/revertPlan.ts), a target that no longer exists, a revoked key's overrides, a stored
 *   list that no longer passes today's validation. 404 for an unknown event.
 */
import type { z } from "zod";
import type { Prisma } from "../../db/generated/client";
import { getDb } from "../../db/client";
import { revokeKeyIn, setKeyBillingDayIn, setKeyExpiryIn, setKeyTierIn } from "../../policy/keys/keyStore";
import { auditView, recordAudit, type Actor, type AuditEventView } from "../../policy/audit/auditLog";
import { revertAction, revertPlan, type RevertPlan } from "../../policy/audit/revertPlan";
import { AppError } from "../../http/errors";
import { fieldErrors } from "../../http/validate";
import { replaceRulesIn } from "../../policy/rules/ruleStore";
import { upstreamSchema } from "../../policy/upstreams/upstreamSchema";
import { deleteUpstreamIn, putUpstreamIn } from "../../policy/upstreams/upstreamStore";
import type { Rule } from "../../policy/rules/ruleSchema";
import { accessListsSchema } from "../../policy/access/accessListSchema";
import { replaceAccessListsIn } from "../../policy/access/accessListStore";
import { keyRulesSchema, tenantRulesSchema, tierRulesSchema } from "./schemas";
import { identifierOverrideListSchema } from "../../policy/overrides/overrideSchema";
import { replaceOverridesIn } from "../../policy/overrides/overrideStore";
import { identitySchema } from "../../policy/identity/identitySchema";
import { putIdentityIn } from "../../policy/identity/identityStore";

type Tx = Prisma.TransactionClient;

export interface RevertResult {
  /** The audit event of the revert. */
  revert: AuditEventView;
  /** The tenant to announce. */
  tenantId: string;
}

function validRules(event: AuditEventView, plan: Extract<RevertPlan, { kind: "rules" }>): Rule[] {
  const schema =
    plan.owner.kind === "tenant" ? tenantRulesSchema : plan.owner.kind === "tier" ? tierRulesSchema : keyRulesSchema;
  const parsed = schema.safeParse(plan.rules);
  if (parsed.success) return parsed.data;
  const [field, messages] = Object.entries(fieldErrors(parsed.error))[0] ?? ["", ["invalid"]];
  throw new AppError(
    "conflict",
    `Audit event ${event.id} cannot be reverted: its earlier rule list no longer passes validation (${field || "list"}: ${messages[0]}).`,
  );
}

/**
 * `value` as `schema` parses it today (the same schema as the PUT it reverts), or a conflict:
 * `whatNoLongerPasses` completes "its earlier ... validation" ("upstream no longer passes").
 */
function stillValid<T>(event: AuditEventView, schema: z.ZodType<T>, value: unknown, whatNoLongerPasses: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AppError(
    "conflict",
    `Audit event ${event.id} cannot be reverted: its earlier ${whatNoLongerPasses} validation.`,
  );
}

/** The target vanished (a key or tenant deleted since): a conflict, not a 404 of the audit event. */
async function targetMustExist<T>(event: AuditEventView, apply: () => Promise<T>): Promise<T> {
  try {
    return await apply();
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") {
      throw new AppError(
        "conflict",
        `Audit event ${event.id} cannot be reverted: its target ${event.target} no longer exists.`,
      );
    }
    throw error;
  }
}

/** A grant's creation undone: the grant (already deleted by the caller when found) is audited as ended; gone already: 409. */
async function grantEnded(
  tx: Tx,
  actor: Actor,
  event: AuditEventView,
  note: { action: string; revertOf: string },
  grant: { tenantId: string } | null,
): Promise<RevertResult> {
  if (!grant)
    throw new AppError("conflict", `Audit event ${event.id} cannot be reverted: the grant has ended already.`);
  const revert = await recordAudit(tx, actor, {
    action: note.action,
    target: event.target,
    tenantId: grant.tenantId,
    before: event.after,
    revertOf: note.revertOf,
  });
  return { revert, tenantId: grant.tenantId };
}

async function apply(tx: Tx, actor: Actor, event: AuditEventView): Promise<RevertResult> {
  const plan = revertPlan(event);
  const note = { action: revertAction(event.action), revertOf: event.id };
  switch (plan.kind) {
    case "rules": {
      const rules = validRules(event, plan);
      const saved = await targetMustExist(event, () => replaceRulesIn(tx, actor, plan.owner, rules, note));
      return { revert: saved.audit, tenantId: saved.tenantId };
    }
    case "upstream": {
      if (plan.upstream === null) {
        const none = await tx.upstream.findUnique({ where: { tenantId: plan.tenantId }, select: { tenantId: true } });
        if (!none)
          throw new AppError(
            "conflict",
            `Audit event ${event.id} cannot be reverted: tenant ${plan.tenantId} has no upstream to remove.`,
          );
        const removed = await targetMustExist(event, () => deleteUpstreamIn(tx, actor, plan.tenantId, note));
        return { revert: removed.audit, tenantId: removed.tenantId };
      }
      const valid = stillValid(event, upstreamSchema, plan.upstream, "upstream no longer passes");
      const set = await targetMustExist(event, () => putUpstreamIn(tx, actor, plan.tenantId, valid, note));
      return { revert: set.audit, tenantId: set.tenantId };
    }
    case "access": {
      const valid = stillValid(event, accessListsSchema, plan.lists, "access lists no longer pass");
      const set = await targetMustExist(event, () => replaceAccessListsIn(tx, actor, plan.tenantId, valid, note));
      return { revert: set.audit, tenantId: set.tenantId };
    }
    case "overrides": {
      const valid = stillValid(event, identifierOverrideListSchema, plan.overrides, "overrides no longer pass");
      const saved = await targetMustExist(event, () =>
        replaceOverridesIn(tx, actor, plan.tenantId, plan.rule, valid, note),
      );
      return { revert: saved.audit, tenantId: saved.tenantId };
    }
    case "identity": {
      const valid = stillValid(event, identitySchema, plan.identity, "identity settings no longer pass");
      const set = await targetMustExist(event, () => putIdentityIn(tx, actor, plan.tenantId, valid, note));
      return { revert: set.audit, tenantId: set.tenantId };
    }
    case "revoke_key": {
      const revoked = await targetMustExist(event, () => revokeKeyIn(tx, actor, plan.keyId, note));
      if (!revoked.audit)
        throw new AppError(
          "conflict",
          `Audit event ${event.id} cannot be reverted: API key ${plan.keyId} is already revoked.`,
        );
      return { revert: revoked.audit, tenantId: revoked.tenantId };
    }
    case "key_expiry": {
      const expiresAt = plan.expiresAt === null ? null : new Date(plan.expiresAt);
      const saved = await targetMustExist(event, () => setKeyExpiryIn(tx, actor, plan.keyId, expiresAt, note));
      if (!saved.audit)
        throw new AppError(
          "conflict",
          `Audit event ${event.id} cannot be reverted: API key ${plan.keyId} already has that expiry.`,
        );
      return { revert: saved.audit, tenantId: saved.key.tenantId };
    }
    case "grant_end": {
      const grant = await tx.keyGrant.findFirst({ where: { id: plan.grantId, keyId: plan.keyId } });
      if (grant) await tx.keyGrant.delete({ where: { id: grant.id } });
      return grantEnded(tx, actor, event, note, grant);
    }
    case "caller_grant_end": {
      const grant = await tx.callerGrant.findFirst({ where: { id: plan.grantId, tenantId: plan.tenantId } });
      if (grant) await tx.callerGrant.delete({ where: { id: grant.id } });
      return grantEnded(tx, actor, event, note, grant);
    }
    case "key_billing_day": {
      const saved = await targetMustExist(event, () =>
        setKeyBillingDayIn(tx, actor, plan.keyId, plan.billingDay, note),
      );
      if (!saved.audit)
        throw new AppError(
          "conflict",
          `Audit event ${event.id} cannot be reverted: API key ${plan.keyId} already has that billing day.`,
        );
      return { revert: saved.audit, tenantId: saved.key.tenantId };
    }
    case "key_tier": {
      const saved = await targetMustExist(event, () => setKeyTierIn(tx, actor, plan.keyId, plan.tier, note));
      if (!saved.audit)
        throw new AppError(
          "conflict",
          `Audit event ${event.id} cannot be reverted: API key ${plan.keyId} is already in that tier.`,
        );
      return { revert: saved.audit, tenantId: saved.key.tenantId };
    }
  }
}

export async function revertChange(actor: Actor, auditId: string): Promise<RevertResult> {
  return getDb().$transaction(async (tx) => {
    const row = await tx.auditEvent.findUnique({ where: { id: BigInt(auditId) } });
    if (!row) throw new AppError("not_found", `No audit event with id ${JSON.stringify(auditId)}.`);
    return apply(tx, actor, auditView(row));
  });
}
