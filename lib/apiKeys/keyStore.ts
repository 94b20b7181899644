/**
 * API keys: create (the secret is returned once, only its hash is stored), list (never the
 * secret), revoke, and un-revoke (only as the revert of a revocation). Every change is audited in
 * the transaction that makes it; callers announce it to all instances after the commit.
 */
import { getDb } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { AppError } from "../http/errors";
import { recordAudit, type Actor, type AuditEventView } from "../audit/auditLog";
import { withFreshId } from "../tenants/tenantStore";
import { mintKey } from "./apiKeySecret";

export interface KeyView {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface CreatedKey extends KeyView {
  /** The whole key: shown only in the answer to its creation. */
  key: string;
}

type Tx = Prisma.TransactionClient;

type KeyRow = { id: string; tenantId: string; name: string; prefix: string; createdAt: Date; revokedAt: Date | null; lastUsedAt: Date | null };

export const keyView = (k: KeyRow): KeyView => ({
  id: k.id,
  tenantId: k.tenantId,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
});

const tenantMissing = (tenantId: string) => new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
const keyMissing = (keyId: string) => new AppError("not_found", `No API key with id ${JSON.stringify(keyId)}.`);

export async function createKey(actor: Actor, tenantId: string, name: string): Promise<CreatedKey> {
  return withFreshId((id) =>
    getDb().$transaction(async (tx) => {
      const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
      if (!tenant) throw tenantMissing(tenantId);
      const minted = mintKey(id);
      const row = await tx.apiKey.create({ data: { id, tenantId, name, prefix: minted.prefix, secretHash: minted.secretHash } });
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

/** How a change is audited when it is not the plain route's (a revert: lib/admin/revertChange.ts). */
export interface KeyChangeNote {
  action?: string;
  revertOf?: string;
}

/** Revokes a key within the caller's transaction; revoking a revoked key changes nothing. */
export async function revokeKeyIn(tx: Tx, actor: Actor, keyId: string, note: KeyChangeNote = {}): Promise<{ tenantId: string; changed: boolean; audit?: AuditEventView }> {
  const row = await tx.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw keyMissing(keyId);
  // Conditional update: of two concurrent revocations only one changes the row and is audited.
  const updated = await tx.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (updated.count === 0) return { tenantId: row.tenantId, changed: false };
  const revoked = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  const audit = await recordAudit(tx, actor, { action: note.action ?? "key.revoke", target: `key:${keyId}`, tenantId: row.tenantId, before: keyView(row), after: keyView(revoked), revertOf: note.revertOf });
  return { tenantId: row.tenantId, changed: true, audit };
}

/** Revokes a key (DELETE /api/admin/keys/{keyId}). Returns the key's tenant. */
export async function revokeKey(actor: Actor, keyId: string): Promise<{ tenantId: string; changed: boolean }> {
  return getDb().$transaction((tx) => revokeKeyIn(tx, actor, keyId));
}

/**
 * Makes a revoked key valid again, within the caller's transaction, only while the revocation made
 * at `revokedAt` is the one in force: a key revoked again later (or already live) is a `conflict`,
 * so an old revert can never undo a newer revocation. The secret is unchanged: whoever holds the
 * key can use it again once the change is announced.
 */
export async function unrevokeKeyIn(tx: Tx, actor: Actor, keyId: string, revokedAt: string, note: KeyChangeNote): Promise<{ tenantId: string; audit: AuditEventView }> {
  const row = await tx.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw keyMissing(keyId);
  const expected = new Date(revokedAt);
  if (!row.revokedAt) throw new AppError("conflict", `API key ${keyId} is not revoked any more.`);
  if (row.revokedAt.getTime() !== expected.getTime()) {
    throw new AppError("conflict", `API key ${keyId} was revoked again at ${row.revokedAt.toISOString()}; revert that revocation instead.`);
  }
  const updated = await tx.apiKey.updateMany({ where: { id: keyId, revokedAt: expected }, data: { revokedAt: null } });
  if (updated.count === 0) throw new AppError("conflict", `API key ${keyId} changed while being restored; try again.`);
  const live = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  const audit = await recordAudit(tx, actor, { action: note.action ?? "key.unrevoke", target: `key:${keyId}`, tenantId: row.tenantId, before: keyView(row), after: keyView(live), revertOf: note.revertOf });
  return { tenantId: row.tenantId, audit };
}

/** Records use of keys (batched, best effort: never on the request's critical path). */
export async function touchKeys(keyIds: string[], at: Date): Promise<void> {
  if (keyIds.length === 0) return;
  await getDb().apiKey.updateMany({ where: { id: { in: keyIds } }, data: { lastUsedAt: at } });
}
