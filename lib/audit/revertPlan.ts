/**
 * What reverting an audit event means, decided from the event alone (pure; the admin service in
 * lib/admin/revertChange.ts checks it against the current state and applies it).
 *
 * - `rules.replace` (a tenant's rules or a key's overrides): re-apply the event's `before` list.
 * - `key.revoke`: un-revoke the key, which the service allows only while that very revocation is
 *   the one in force (see revertChange.ts).
 * - A revert (`<action>.revert`) is itself revertible like its base action: reverting the revert
 *   of a rules change re-applies the list the revert replaced; reverting an un-revoke revokes again.
 * - Anything else (tenant.create, key.create, operator.*) cannot be reverted: AppError `conflict`
 *   saying why. So is an event whose stored `before` is not what its action writes.
 */
import { AppError } from "../http/errors";
import { isId } from "../ids";

export const REVERT_SUFFIX = ".revert";

export type RevertPlan =
  | { kind: "rules"; owner: { kind: "tenant"; tenantId: string } | { kind: "key"; keyId: string }; rules: unknown[] }
  | { kind: "unrevoke_key"; keyId: string; revokedAt: string }
  | { kind: "revoke_key"; keyId: string };

export interface RevertableEvent {
  id: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** The action without its `.revert` suffixes: `rules.replace.revert` → `rules.replace`. */
export function baseAction(action: string): string {
  let base = action;
  while (base.endsWith(REVERT_SUFFIX)) base = base.slice(0, -REVERT_SUFFIX.length);
  return base;
}

/** The action a revert of `action` is audited under (a revert of a revert is still `<base>.revert`). */
export const revertAction = (action: string): string => baseAction(action) + REVERT_SUFFIX;

const REVERTIBLE = new Set(["rules.replace", "key.revoke"]);

export function isRevertibleAction(action: string): boolean {
  return REVERTIBLE.has(baseAction(action));
}

function targetId(event: RevertableEvent, kind: "tenant" | "key"): string | null {
  const prefix = `${kind}:`;
  if (!event.target.startsWith(prefix)) return null;
  const id = event.target.slice(prefix.length);
  return isId(id) ? id : null;
}

const refuse = (event: RevertableEvent, why: string) => new AppError("conflict", `Audit event ${event.id} (${event.action}) cannot be reverted: ${why}`);

const revokedAtOf = (view: unknown): string | null | undefined => {
  if (!view || typeof view !== "object" || !("revokedAt" in view)) return undefined;
  const value = (view as { revokedAt: unknown }).revokedAt;
  return typeof value === "string" || value === null ? value : undefined;
};

export function revertPlan(event: RevertableEvent): RevertPlan {
  const base = baseAction(event.action);
  if (base === "rules.replace") {
    if (!Array.isArray(event.before)) throw refuse(event, "it holds no earlier rule list.");
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
    if (before === null && typeof after === "string") return { kind: "unrevoke_key", keyId, revokedAt: after };
    if (typeof before === "string" && after === null) return { kind: "revoke_key", keyId };
    throw refuse(event, "it does not record the key's revocation state before and after.");
  }
  if (base === "tenant.create") throw refuse(event, "tenants cannot be deleted through the admin API.");
  if (base === "key.create") throw refuse(event, "revoke the key instead (DELETE /api/admin/keys/{keyId}).");
  if (base.startsWith("operator.")) throw refuse(event, "operator changes are made on the operators page, not reverted.");
  throw refuse(event, "only rule changes and key revocations can be reverted.");
}
