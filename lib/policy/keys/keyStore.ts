/**
 * API keys: create (the secret is returned once, only its hash is stored), list (never the
 * secret), revoke, un-revoke (only as the revert of a revocation), set the expiry and the tier
 * (lib/policy/tiers: any valid tier name, with rules yet or not). Every change is audited in
 * the transaction that makes it; callers announce it to all instances after the commit.
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { AppError } from "../../http/errors";
import { recordAudit, type Actor, type AuditEventView } from "../audit/auditLog";
import { withFreshId } from "../tenants/tenantStore";
import { mintKey } from "./apiKeySecret";
import type { CreatedKey, KeyView } from "./keyAnswers";

export type { CreatedKey, KeyView } from "./keyAnswers";

type Tx = Prisma.TransactionClient;

type KeyRow = {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  tier: string | null;
  billingDay: number | null;
};

export const keyView = (k: KeyRow): KeyView => ({
  id: k.id,
  tenantId: k.tenantId,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  expiresAt: k.expiresAt?.toISOString() ?? null,
  tier: k.tier,
  billingDay: k.billingDay,
});

const tenantMissing = (tenantId: string) => new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
const keyMissing = (keyId: string) => new AppError("not_found", `No API key with id ${JSON.stringify(keyId)}.`);

export async function createKey(
  actor: Actor,
  tenantId: string,
  name: string,
  expiresAt: Date | null = null,
  tier: string | null = null,
  billingDay: number | null = null,
): Promise<CreatedKey> {
  return withFreshId((id) =>
    getDb().$transaction(async (tx) => {
      const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
      if (!tenant) throw tenantMissing(tenantId);
      const minted = mintKey(id);
      const row = await tx.apiKey.create({
        data: { id, tenantId, name, prefix: minted.prefix, secretHash: minted.secretHash, expiresAt, tier, billingDay },
      });
      await recordAudit(tx, actor, { action: "key.create", target: `key:${id}`, tenantId, after: keyView(row) });
      return { ...keyView(row), key: minted.key };
    }),
  );
}

export async function listKeys(tenantId: string): Promise<KeyView[]> {
  const db = getDb();
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw tenantMissing(tenantId);
  const rows = await db.apiKey.findMany({ where: { tenantId }, orderBy: { createdAt: "asc" } });
  return rows.map(keyView);
}

export async function getKey(keyId: string): Promise<KeyView> {
  const row = await getDb().apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw keyMissing(keyId);
  return keyView(row);
}

/** How a change is audited when it is not the plain route's (a revert: lib/control/admin/revertChange.ts). */
export interface KeyChangeNote {
  action?: string;
  revertOf?: string;
}

/** Revokes a key within the caller's transaction; revoking a revoked key changes nothing. */
export async function revokeKeyIn(
  tx: Tx,
  actor: Actor,
  keyId: string,
  note: KeyChangeNote = {},
): Promise<{ tenantId: string; changed: boolean; audit?: AuditEventView }> {
  const row = await tx.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw keyMissing(keyId);
  // Conditional update: of two concurrent revocations only one changes the row and is audited.
  const updated = await tx.apiKey.updateMany({
    where: { id: keyId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (updated.count === 0) return { tenantId: row.tenantId, changed: false };
  const revoked = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? "key.revoke",
    target: `key:${keyId}`,
    tenantId: row.tenantId,
    before: keyView(row),
    after: keyView(revoked),
    revertOf: note.revertOf,
  });
  return { tenantId: row.tenantId, changed: true, audit };
}

/** Revokes a key (DELETE /api/admin/keys/{keyId}). Returns the key's tenant. */
export async function revokeKey(actor: Actor, keyId: string): Promise<{ tenantId: string; changed: boolean }> {
  return getDb().$transaction((tx) => revokeKeyIn(tx, actor, keyId));
}

/**
 * Sets (or clears, with null) a key's expiry within the caller's transaction, audited as
 * `key.expiry` (revertible: the revert sets the `before` expiry again). A revoked key cannot be
 * given an expiry (409): it is refused already, for good. Setting the expiry it has changes nothing.
 */
export async function setKeyExpiryIn(
  tx: Tx,
  actor: Actor,
  keyId: string,
  expiresAt: Date | null,
  note: KeyChangeNote = {},
): Promise<KeyFieldChange> {
  return setKeyFieldIn(tx, actor, keyId, note, {
    what: "expiry",
    action: "key.expiry",
    same: (row) => (row.expiresAt?.getTime() ?? null) === (expiresAt?.getTime() ?? null),
    data: { expiresAt },
  });
}

/**
 * Puts a key in a tier (or in none, with null) within the caller's transaction, audited as
 * `key.tier` (revertible: the revert sets the `before` tier again). `tier` must have passed
 * tierNameSchema; it need not have rules yet. A revoked key cannot change tier (409). Setting the
 * tier it has changes nothing.
 */
export async function setKeyTierIn(
  tx: Tx,
  actor: Actor,
  keyId: string,
  tier: string | null,
  note: KeyChangeNote = {},
): Promise<KeyFieldChange> {
  return setKeyFieldIn(tx, actor, keyId, note, {
    what: "tier",
    action: "key.tier",
    same: (row) => row.tier === tier,
    data: { tier },
  });
}

/**
 * Sets a key's billing day (null: calendar months) within the caller's transaction, audited as
 * `key.billingDay` (revertible: the revert sets the `before` day again). Its month-period key rules count from the new day's period on: the period
 * holding the change starts afresh (its counter is the new period's).
 */
export async function setKeyBillingDayIn(
  tx: Tx,
  actor: Actor,
  keyId: string,
  billingDay: number | null,
  note: KeyChangeNote = {},
): Promise<KeyFieldChange> {
  return setKeyFieldIn(tx, actor, keyId, note, {
    what: "billing day",
    action: "key.billingDay",
    same: (row) => row.billingDay === billingDay,
    data: { billingDay },
  });
}

type KeyFieldChange = { key: KeyView; changed: boolean; audit?: AuditEventView };

/** One audited change of a live key's field: 409 for a revoked key, nothing done when `same`. */
async function setKeyFieldIn(
  tx: Tx,
  actor: Actor,
  keyId: string,
  note: KeyChangeNote,
  change: { what: string; action: string; same: (row: KeyRow) => boolean; data: Prisma.ApiKeyUpdateInput },
): Promise<KeyFieldChange> {
  const row = await tx.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw keyMissing(keyId);
  if (row.revokedAt)
    throw new AppError("conflict", `API key ${keyId} is revoked; its ${change.what} cannot be changed.`);
  if (change.same(row)) return { key: keyView(row), changed: false };
  const updated = await tx.apiKey.update({ where: { id: keyId }, data: change.data });
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? change.action,
    target: `key:${keyId}`,
    tenantId: row.tenantId,
    before: keyView(row),
    after: keyView(updated),
    revertOf: note.revertOf,
  });
  return { key: keyView(updated), changed: true, audit };
}

/**
 * PATCH /api/admin/keys/{keyId} `{ expiresAt?, tier?, billingDay? }`: the fields given, in one transaction
 * (each audited as its own change); answers the key as it is after.
 */
export async function patchKey(
  actor: Actor,
  keyId: string,
  patch: { expiresAt?: Date | null; tier?: string | null; billingDay?: number | null },
): Promise<{ key: KeyView }> {
  return getDb().$transaction(async (tx) => {
    let key: KeyView | undefined;
    if (patch.expiresAt !== undefined) key = (await setKeyExpiryIn(tx, actor, keyId, patch.expiresAt)).key;
    if (patch.tier !== undefined) key = (await setKeyTierIn(tx, actor, keyId, patch.tier)).key;
    if (patch.billingDay !== undefined) key = (await setKeyBillingDayIn(tx, actor, keyId, patch.billingDay)).key;
    if (!key) {
      const row = await tx.apiKey.findUnique({ where: { id: keyId } });
      if (!row) throw keyMissing(keyId);
      key = keyView(row);
    }
    return { key };
  });
}

/** Records use of keys (batched, best effort: never on the request's critical path). */
export async function touchKeys(keyIds: string[], at: Date): Promise<void> {
  if (keyIds.length === 0) return;
  await getDb().apiKey.updateMany({ where: { id: { in: keyIds } }, data: { lastUsedAt: at } });
}
