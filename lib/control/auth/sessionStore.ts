/**
 * Operator sessions in Postgres: create at login, resolve per request, end at logout.
 *
 * - A session row holds the SHA-256 of its token (sessionToken.ts), never the token.
 * - `findSession` answers null for an unknown, malformed or expired token; an expired row is
 *   deleted when met. The role is read from the operator row on every request, so a demotion
 *   takes effect at once. `lastSeenAt` is written at most once a minute per session.
 * - Each login also deletes every expired session (indexed on expiresAt), so they never pile up.
 * - Database errors propagate (the admin API answers 503).
 */
import "server-only";
import { getDb } from "../../db/client";
import type { Role } from "./operatorSchemas";
import { SESSION_TTL_MS } from "./sessionCookie";
import { hashSessionToken, isSessionTokenShape, mintSessionToken } from "./sessionToken";

const LAST_SEEN_EVERY_MS = 60_000;

export interface OperatorSession {
  sessionId: string;
  operatorId: string;
  email: string;
  role: Role;
  /** The tenants the operator is limited to; empty: every tenant. */
  tenantIds: string[];
  expiresAt: Date;
}

export interface NewSession {
  token: string;
  expiresAt: Date;
}

/** `ssoIssuer`: the OpenID issuer of a single sign-on login (kept for the IdP logout). */
export async function createSession(operatorId: string, now = new Date(), ssoIssuer?: string): Promise<NewSession> {
  const db = getDb();
  await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  const { token, tokenHash } = mintSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.session.create({ data: { operatorId, tokenHash, createdAt: now, expiresAt, ssoIssuer } });
  return { token, expiresAt };
}

export async function findSession(token: string, now = new Date()): Promise<OperatorSession | null> {
  if (!isSessionTokenShape(token)) return null;
  const db = getDb();
  const row = await db.session.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    include: { operator: true },
  });
  // Prisma reads the session and its operator in two queries: an operator deleted in between (its
  // sessions go with it, ON DELETE CASCADE) leaves the relation null despite its type. That session
  // is gone: 401, not a 500 (seen in CI while a deleted viewer's page was still polling).
  const operator = (row?.operator ?? null) as { email: string; role: Role; tenantIds: string[] | null } | null;
  if (!row || !operator) return null;
  if (row.expiresAt.getTime() <= now.getTime()) {
    await db.session.deleteMany({ where: { id: row.id } });
    return null;
  }
  if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    await db.session.updateMany({ where: { id: row.id }, data: { lastSeenAt: now } });
  }
  return {
    sessionId: row.id,
    operatorId: row.operatorId,
    email: operator.email,
    role: operator.role,
    tenantIds: operator.tenantIds ?? [],
    expiresAt: row.expiresAt,
  };
}

/**
 * Ends the session of `token`, if there is one; answers the OpenID issuer that opened it (a single
 * sign-on session), else null.
 */
export async function deleteSession(token: string): Promise<{ ssoIssuer: string | null } | null> {
  if (!isSessionTokenShape(token)) return null;
  const tokenHash = hashSessionToken(token);
  const db = getDb();
  const row = await db.session.findUnique({ where: { tokenHash }, select: { ssoIssuer: true } });
  await db.session.deleteMany({ where: { tokenHash } });
  return row ? { ssoIssuer: row.ssoIssuer } : null;
}
