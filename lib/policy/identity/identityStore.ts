/**
 * A tenant's identity settings in Postgres (TenantIdentity and TenantHost): read, and replaced by a
 * PUT in ONE transaction with its audit event (`identity.replace`, before and after the whole
 * settings). No TenantIdentity row: the defaults (identitySchema.ts DEFAULT_IDENTITY). Callers
 * announce the tenant after the commit, so every instance's access cache picks the change up
 * (hosts, callers and verifier: lib/policy/compiled/accessCache.ts).
 *
 * A host belongs to one tenant at most (TenantHost's primary key): a PUT naming a host another
 * tenant holds is a `conflict` (409) naming the host, and changes nothing; two PUTs racing for the
 * same free host end the same way for the later one (the key's unique violation).
 *
 * Errors (AppError): `not_found` for an unknown tenant; `conflict` as above.
 */
import { getDb } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { recordAudit, type Actor, type AuditEventView } from "../audit/auditLog";
import { AppError } from "../../http/errors";
import { lockTenant, noTenant } from "../tenants/tenantLock";
import { DEFAULT_IDENTITY, type JwtSettings, type TenantIdentity } from "./identitySchema";

type Tx = Prisma.TransactionClient;

export interface ChangedIdentity {
  tenantId: string;
  identity: TenantIdentity;
  audit: AuditEventView;
}

type IdentityRow = { apiKeys: boolean; anonymous: boolean; jwt: Prisma.JsonValue } | null;

/** The settings from their rows (hosts in the order of their names). */
export function identityFromRows(row: IdentityRow, hosts: string[]): TenantIdentity {
  if (!row) return { ...DEFAULT_IDENTITY, hosts };
  return {
    hosts,
    apiKeys: row.apiKeys,
    jwt: (row.jwt ?? null) as JwtSettings | null,
    anonymous: row.anonymous,
  };
}

async function readIn(db: Tx | ReturnType<typeof getDb>, tenantId: string): Promise<TenantIdentity> {
  const [row, hosts] = await Promise.all([
    db.tenantIdentity.findUnique({ where: { tenantId }, select: { apiKeys: true, anonymous: true, jwt: true } }),
    db.tenantHost.findMany({ where: { tenantId }, select: { host: true }, orderBy: { host: "asc" } }),
  ]);
  return identityFromRows(
    row,
    hosts.map((h) => h.host),
  );
}

export async function getIdentity(tenantId: string): Promise<TenantIdentity> {
  const db = getDb();
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw noTenant(tenantId);
  return readIn(db, tenantId);
}

const hostTaken = (hosts: string[]) =>
  new AppError(
    "conflict",
    hosts.length === 1
      ? `The host ${hosts[0]} belongs to another tenant: a host routes to one tenant only.`
      : `The hosts ${hosts.join(", ")} belong to other tenants: a host routes to one tenant only.`,
  );

/** Replaces the settings (`identity` must have passed identitySchema). */
export async function putIdentityIn(
  tx: Tx,
  actor: Actor,
  tenantId: string,
  identity: TenantIdentity,
  note: { action?: string; revertOf?: string } = {},
): Promise<ChangedIdentity> {
  await lockTenant(tx, tenantId);
  const before = await readIn(tx, tenantId);
  const taken = await tx.tenantHost.findMany({
    where: { host: { in: identity.hosts }, tenantId: { not: tenantId } },
    select: { host: true },
    orderBy: { host: "asc" },
  });
  if (taken.length > 0) throw hostTaken(taken.map((t) => t.host));
  await tx.tenantHost.deleteMany({ where: { tenantId, host: { notIn: identity.hosts } } });
  const held = new Set(before.hosts);
  const added = identity.hosts.filter((host) => !held.has(host));
  if (added.length > 0) await tx.tenantHost.createMany({ data: added.map((host) => ({ host, tenantId })) });
  const data = {
    apiKeys: identity.apiKeys,
    anonymous: identity.anonymous,
    jwt: identity.jwt === null ? Prisma.DbNull : (identity.jwt as Prisma.InputJsonValue),
  };
  await tx.tenantIdentity.upsert({ where: { tenantId }, create: { tenantId, ...data }, update: data });
  const after = await readIn(tx, tenantId);
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? "identity.replace",
    target: `tenant:${tenantId}`,
    tenantId,
    before,
    after,
    revertOf: note.revertOf,
  });
  return { tenantId, identity: after, audit };
}

export async function putIdentity(actor: Actor, tenantId: string, identity: TenantIdentity): Promise<ChangedIdentity> {
  try {
    return await getDb().$transaction((tx) => putIdentityIn(tx, actor, tenantId, identity));
  } catch (error) {
    // A concurrent PUT of another tenant took one of these hosts first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw hostTaken(identity.hosts);
    throw error;
  }
}
