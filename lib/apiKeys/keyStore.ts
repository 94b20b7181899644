/**
 * API keys: create (the secret is returned once, only its hash is stored), list (never the
 * secret), revoke. Every change is audited in its own transaction and announced to all instances.
 */
import { getDb } from "../db/client";
import { AppError } from "../http/errors";
import { recordAudit, type Actor } from "../audit/auditLog";
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
  if (!row) throw new AppError("not_found", `No API key with id ${JSON.stringify(keyId)}.`);
  return keyView(row);
}

/** Revokes a key; revoking a revoked key changes nothing. Returns the key's tenant. */
export async function revokeKey(actor: Actor, keyId: string): Promise<{ tenantId: string; changed: boolean }> {
  return getDb().$transaction(async (tx) => {
    const row = await tx.apiKey.findUnique({ where: { id: keyId } });
    if (!row) throw new AppError("not_found", `No API key with id ${JSON.stringify(keyId)}.`);
    if (row.revokedAt) return { tenantId: row.tenantId, changed: false };
    const revoked = await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    await recordAudit(tx, actor, { action: "key.revoke", target: `key:${keyId}`, tenantId: row.tenantId, before: keyView(row), after: keyView(revoked) });
    return { tenantId: row.tenantId, changed: true };
  });
}

/** Records use of keys (batched, best effort: never on the request's critical path). */
export async function touchKeys(keyIds: string[], at: Date): Promise<void> {
  if (keyIds.length === 0) return;
  await getDb().apiKey.updateMany({ where: { id: { in: keyIds } }, data: { lastUsedAt: at } });
}
