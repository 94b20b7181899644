/**
 * What reverting an audit event means, decided from the event alone (pure; the admin service in
 * lib/control/admin/revertChange.ts checks it against the current state and applies it).
 *
 * - `rules.replace` (a tenant's rules, a key's overrides or a tier's rules) and `tier.delete` (a
 *   tier's rules removed): re-apply the event's `before` list.
 * - `key.revoke`: never undone. A revoked key stays dead (its secret may have leaked, which is
 *   usually why it was revoked); the refusal says to create a new key. Un-revokes recorded before
 *   this rule (`key.revoke.revert` from a revoked to a live key) can still be reverted: that
 *   revokes the key again.
 * - `key.expiry`: set the key's expiry back to the event's `before` (null: never expires).
 * - `key.tier`: put the key back in the event's `before` tier (null: none).
 * - `key.billingDay`: set the key's billing day back to the event's `before` (null: none).
 * - `upstream.replace` / `upstream.delete` (a tenant's gateway upstream): restore the event's
 *   `before`: set that upstream again, or remove the upstream when there was none.
 * - `access.replace` (a tenant's access lists): replace them with the event's `before` lists.
 * - `overrides.replace` (an identifier rule's overrides): re-apply the event's `before` list.
 * - `identity.replace` (a tenant's hosts and callers): set the event's `before` settings again.
 * - A revert (`<action>.revert`) is itself revertible like its base action: reverting the revert
 *   of a rules change re-applies the list the revert replaced.
 * - Anything else (tenant.create, key.create, operator.*) cannot be reverted: AppError `conflict`
 *   saying why. So is an event whose stored `before` is not what its action writes.
 */
import { AppError } from "../../http/errors";
import { baseAction, REVERT_SUFFIX } from "./auditAction";
import { isId } from "../../common/ids";

export { baseAction } from "./auditAction";

export type RevertPlan =
  | {
      kind: "rules";
      owner:
        | { kind: "tenant"; tenantId: string }
        | { kind: "key"; keyId: string }
        | { kind: "tier"; tenantId: string; tier: string };
      rules: unknown[];
    }
  | { kind: "revoke_key"; keyId: string }
  | { kind: "key_expiry"; keyId: string; expiresAt: string | null }
  | { kind: "key_tier"; keyId: string; tier: string | null }
  | { kind: "key_billing_day"; keyId: string; billingDay: number | null }
  /** A grant (issue 33): reverting its creation ends it. */
  | { kind: "grant_end"; keyId: string; grantId: string }
  /** A JWT subject's or a tier's grant (issue 33): reverting its creation ends it. */
  | { kind: "caller_grant_end"; tenantId: string; grantId: string }
  /** `upstream` null: the tenant had none, remove it. Otherwise it still goes through the schema. */
  | { kind: "upstream"; tenantId: string; upstream: unknown }
  /** `lists` still goes through accessListsSchema. */
  | { kind: "access"; tenantId: string; lists: unknown }
  /** An identifier rule's overrides: the event's `before` list goes through the schema again. */
  | { kind: "overrides"; tenantId: string; rule: string; overrides: unknown }
  /** A tenant's hosts and callers: the event's `before` goes through identitySchema again. */
  | { kind: "identity"; tenantId: string; identity: unknown };

export interface RevertableEvent {
  id: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** The action a revert of `action` is audited under (a revert of a revert is still `<base>.revert`). */
export const revertAction = (action: string): string => baseAction(action) + REVERT_SUFFIX;

const REVERTIBLE = new Set([
  "rules.replace",
  "key.revoke",
  "key.expiry",
  "key.tier",
  "key.billingDay",
  "key.grant",
  "tenant.grant",
  "tier.delete",
  "upstream.replace",
  "upstream.delete",
  "access.replace",
  "overrides.replace",
  "identity.replace",
]);

/** Whether the action can ever be reverted (a revocation `key.revoke` never can). */
export function isRevertibleAction(action: string): boolean {
  return action !== "key.revoke" && REVERTIBLE.has(baseAction(action));
}

/** Whether this very event can be reverted (what the audit view shows as `revertible`). */
export function isRevertible(event: RevertableEvent): boolean {
  if (!isRevertibleAction(event.action)) return false;
  try {
    revertPlan(event);
    return true;
  } catch {
    return false;
  }
}

/** The refusal every revocation gets: what to do instead. */
export const REVOCATION_STAYS =
  "a revoked key stays revoked, since its secret may have leaked; nothing was re-created. Create a new key for the client (POST /api/admin/tenants/{tenantId}/keys) and give it the old key's overrides.";

function targetId(event: RevertableEvent, kind: "tenant" | "key"): string | null {
  const prefix = `${kind}:`;
  if (!event.target.startsWith(prefix)) return null;
  const id = event.target.slice(prefix.length);
  return isId(id) ? id : null;
}

const refuse = (event: RevertableEvent, why: string) =>
  new AppError("conflict", `Audit event ${event.id} (${event.action}) cannot be reverted: ${why}`);

const revokedAtOf = (view: unknown): string | null | undefined => {
  if (!view || typeof view !== "object" || !("revokedAt" in view)) return undefined;
  const value = (view as { revokedAt: unknown }).revokedAt;
  return typeof value === "string" || value === null ? value : undefined;
};

const expiresAtOf = (view: unknown): string | null | undefined => {
  if (!view || typeof view !== "object" || !("expiresAt" in view)) return undefined;
  const value = (view as { expiresAt: unknown }).expiresAt;
  if (value === null) return null;
  return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? value : undefined;
};

const TIER_TARGET = /^tier:([A-Za-z0-9]+)\/([a-z0-9][a-z0-9_-]{0,63})$/;

/** The owner of `tier:<tenantId>/<tier>` (lib/policy/rules/ruleStore.ts tierTarget), or null. */
function tierOwner(event: RevertableEvent): { kind: "tier"; tenantId: string; tier: string } | null {
  const match = TIER_TARGET.exec(event.target);
  return match && isId(match[1]!) ? { kind: "tier", tenantId: match[1]!, tier: match[2]! } : null;
}

const tierOf = (view: unknown): string | null | undefined => {
  if (!view || typeof view !== "object" || !("tier" in view)) return undefined;
  const value = (view as { tier: unknown }).tier;
  return typeof value === "string" || value === null ? value : undefined;
};

export function revertPlan(event: RevertableEvent): RevertPlan {
  const base = baseAction(event.action);
  if (base === "rules.replace" || base === "tier.delete") {
    if (!Array.isArray(event.before)) throw refuse(event, "it holds no earlier rule list.");
    const tier = tierOwner(event);
    if (tier) return { kind: "rules", owner: tier, rules: event.before };
    if (base === "tier.delete") throw refuse(event, `its target ${JSON.stringify(event.target)} is not a tier.`);
    const tenantId = targetId(event, "tenant");
    if (tenantId) return { kind: "rules", owner: { kind: "tenant", tenantId }, rules: event.before };
    const keyId = targetId(event, "key");
    if (keyId) return { kind: "rules", owner: { kind: "key", keyId }, rules: event.before };
    throw refuse(event, `its target ${JSON.stringify(event.target)} is neither a tenant nor a key.`);
  }
  if (base === "key.revoke") {
    const keyId = targetId(event, "key");
    if (!keyId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a key.`);
    const before = revokedAtOf(event.before);
    const after = revokedAtOf(event.after);
    if (before === null && typeof after === "string") throw refuse(event, REVOCATION_STAYS);
    if (typeof before === "string" && after === null) return { kind: "revoke_key", keyId };
    throw refuse(event, "it does not record the key's revocation state before and after.");
  }
  if (base === "key.expiry") {
    const keyId = targetId(event, "key");
    if (!keyId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a key.`);
    const before = expiresAtOf(event.before);
    if (before === undefined) throw refuse(event, "it does not record the key's expiry before the change.");
    return { kind: "key_expiry", keyId, expiresAt: before };
  }
  if (base === "key.grant") {
    const keyId = targetId(event, "key");
    if (!keyId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a key.`);
    const grantId = (event.after as { id?: unknown } | null)?.id;
    if (typeof grantId !== "string" || event.action !== base)
      throw refuse(event, "it does not record the grant it made (a revert of a grant is not undone).");
    return { kind: "grant_end", keyId, grantId };
  }
  if (base === "tenant.grant") {
    const tenantId = targetId(event, "tenant");
    if (!tenantId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a tenant.`);
    const grantId = (event.after as { id?: unknown } | null)?.id;
    if (typeof grantId !== "string" || event.action !== base)
      throw refuse(event, "it does not record the grant it made (a revert of a grant is not undone).");
    return { kind: "caller_grant_end", tenantId, grantId };
  }
  if (base === "key.tier") {
    const keyId = targetId(event, "key");
    if (!keyId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a key.`);
    const before = tierOf(event.before);
    if (before === undefined) throw refuse(event, "it does not record the key's tier before the change.");
    return { kind: "key_tier", keyId, tier: before };
  }
  if (base === "key.billingDay") {
    const keyId = targetId(event, "key");
    if (!keyId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a key.`);
    const before = (event.before as { billingDay?: unknown } | null)?.billingDay;
    if (before !== null && !(typeof before === "number" && Number.isInteger(before) && before >= 1 && before <= 31))
      throw refuse(event, "it does not record the key's billing day before the change.");
    return { kind: "key_billing_day", keyId, billingDay: before };
  }
  if (base === "upstream.replace" || base === "upstream.delete") {
    const tenantId = targetId(event, "tenant");
    if (!tenantId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a tenant.`);
    if (event.before !== null && (typeof event.before !== "object" || Array.isArray(event.before)))
      throw refuse(event, "it holds no earlier upstream.");
    return { kind: "upstream", tenantId, upstream: event.before };
  }
  if (base === "access.replace") {
    const tenantId = targetId(event, "tenant");
    if (!tenantId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a tenant.`);
    if (!event.before || typeof event.before !== "object" || Array.isArray(event.before))
      throw refuse(event, "it holds no earlier access lists.");
    return { kind: "access", tenantId, lists: event.before };
  }
  if (base === "overrides.replace") {
    const tenantId = targetId(event, "tenant");
    if (!tenantId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a tenant.`);
    const before = event.before as { rule?: unknown; overrides?: unknown } | null;
    if (!before || typeof before.rule !== "string" || !Array.isArray(before.overrides))
      throw refuse(event, "it holds no earlier override list.");
    return { kind: "overrides", tenantId, rule: before.rule, overrides: before.overrides };
  }
  if (base === "identity.replace") {
    const tenantId = targetId(event, "tenant");
    if (!tenantId) throw refuse(event, `its target ${JSON.stringify(event.target)} is not a tenant.`);
    if (!event.before || typeof event.before !== "object" || Array.isArray(event.before))
      throw refuse(event, "it holds no earlier identity settings.");
    return { kind: "identity", tenantId, identity: event.before };
  }
  if (base.endsWith(".counters.reset")) throw refuse(event, "reset counters cannot be restored.");
  if (base === "tenant.create") throw refuse(event, "tenants cannot be deleted through the admin API.");
  if (base === "key.create") throw refuse(event, "revoke the key instead (DELETE /api/admin/keys/{keyId}).");
  if (base.startsWith("operator."))
    throw refuse(event, "operator changes are made on the operators page, not reverted.");
  throw refuse(
    event,
    "only rule and tier changes, key revocations, key expiry and tier changes, upstream, access-list and identity changes can be reverted.",
  );
}
