/**
 * Scoped admin API tokens: create (the secret answered once), list (never a secret or hash),
 * delete (revocation), and the lookup authorize makes for a presented token.
 *
 * - Creation and deletion are audited in their own transaction (`token.create`, `token.delete`,
 *   target `token:<id>`, the token's tenant when it has one).
 * - A duplicate name is a 409; an unknown tenant a 422 naming `tenantId`; an unknown id a 404.
 * - `findUsableToken` is one query on the unique hash index, made on every admin call that
 *   presents a token (no cache): a deleted token is refused by every instance on its next call, so
 *   revocation needs no change notice. An expired token is refused like a deleted one (401).
 */
import { getDb } from "../../db/client";
import { AppError } from "../../http/errors";
import { recordAudit, type Actor } from "../../policy/audit/auditLog";
import { isExpired } from "../../policy/keys/keyExpiry";
import { isUniqueViolation } from "../../policy/tenants/tenantStore";
import type { Role } from "../auth/operatorSchemas";
import type { CreatedToken, CreateTokenInput, TokenView } from "./tokenSchemas";
import { hashToken, mintToken } from "./tokenSecret";

export type { CreatedToken, TokenView };

/** What authorize needs of a usable token. */
export interface UsableToken {
  id: string;
  name: string;
  role: Role;
  tenantId: string | null;
}

type TokenRow = {
  id: string;
  name: string;
  role: Role;
  tenantId: string | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: string;
  createdAt: Date;
};

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export const tokenView = (t: TokenRow): TokenView => ({
  id: t.id,
  name: t.name,
  role: t.role,
  tenantId: t.tenantId,
  expiresAt: iso(t.expiresAt),
  lastUsedAt: iso(t.lastUsedAt),
  createdBy: t.createdBy,
  createdAt: t.createdAt.toISOString(),
});

/** The audit actor id of changes made with a token. */
export const tokenActorId = (name: string): string => `token:${name}`;

export async function listTokens(): Promise<TokenView[]> {
  const rows = await getDb().adminToken.findMany({ orderBy: [{ createdAt: "asc" }, { name: "asc" }] });
  return rows.map(tokenView);
}

export async function createToken(actor: Actor, input: CreateTokenInput): Promise<CreatedToken> {
  const { token, secretHash } = mintToken();
  try {
    return await getDb().$transaction(async (tx) => {
      if (input.tenantId !== null && !(await tx.tenant.findUnique({ where: { id: input.tenantId } })))
        throw new AppError("invalid", `No tenant with id ${input.tenantId}.`, {
          errors: { tenantId: ["no tenant has this id"] },
        });
      const row = await tx.adminToken.create({
        data: {
          name: input.name,
          role: input.role,
          tenantId: input.tenantId,
          expiresAt: input.expiresAt,
          secretHash,
          createdBy: actor.id,
        },
      });
      const view = tokenView(row);
      await recordAudit(tx, actor, {
        action: "token.create",
        target: `token:${row.id}`,
        tenantId: row.tenantId,
        after: view,
      });
      return { ...view, token };
    });
  } catch (error) {
    if (isUniqueViolation(error, "name"))
      throw new AppError("conflict", `A token named ${JSON.stringify(input.name)} already exists.`);
    throw error;
  }
}

/** Revokes a token: it is refused (401) from the next call on, on every instance. */
export async function deleteToken(actor: Actor, id: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    const before = await tx.adminToken.findUnique({ where: { id } });
    if (!before) throw new AppError("not_found", `No token with id ${JSON.stringify(id)}.`);
    await tx.adminToken.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "token.delete",
      target: `token:${id}`,
      tenantId: before.tenantId,
      before: tokenView(before),
    });
  });
}

/** The token `presented` is, when it exists and has not expired at `nowMs`; else null. */
export async function findUsableToken(presented: string, nowMs: number): Promise<UsableToken | null> {
  const row = await getDb().adminToken.findUnique({
    where: { secretHash: hashToken(presented) },
    select: { id: true, name: true, role: true, tenantId: true, expiresAt: true },
  });
  if (!row || isExpired(row.expiresAt?.getTime() ?? null, nowMs)) return null;
  return { id: row.id, name: row.name, role: row.role, tenantId: row.tenantId };
}

/** Sets lastUsedAt of these tokens (lib/control/tokens/tokenUsage.ts batches the calls). */
export async function touchTokens(ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await getDb().adminToken.updateMany({ where: { id: { in: ids } }, data: { lastUsedAt: at } });
}
