/**
 * A tenant's gateway upstream in Postgres: read, set (PUT) and remove (DELETE), each change in ONE
 * transaction with its audit event (`upstream.replace`, `upstream.delete`; before and after are
 * the upstream or null). The `...In` forms join a caller's transaction (a revert's:
 * lib/control/admin/revertChange.ts). Callers announce the tenant after the commit, so every instance's
 * access cache (lib/policy/compiled/accessCache.ts) picks the change up.
 *
 * Errors (AppError): `not_found` for an unknown tenant, and for a tenant without an upstream on
 * GET and DELETE.
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type Actor, type AuditEventView } from "../audit/auditLog";
import { AppError } from "../../http/errors";
import { lockTenant, noTenant } from "../tenants/tenantLock";
import type { Upstream } from "./upstreamSchema";

type Tx = Prisma.TransactionClient;

export interface ChangedUpstream {
  tenantId: string;
  upstream: Upstream | null;
  audit: AuditEventView;
}

/** How a change is audited when it is not a plain PUT or DELETE (a revert). */
export interface UpstreamChangeNote {
  action?: string;
  revertOf?: string;
}

const noUpstream = (tenantId: string) => new AppError("not_found", `Tenant ${tenantId} has no upstream.`);

const view = (row: { url: string; timeoutMs: number } | null): Upstream | null =>
  row ? { url: row.url, timeoutMs: row.timeoutMs } : null;

async function current(tx: Tx, tenantId: string): Promise<Upstream | null> {
  return view(await tx.upstream.findUnique({ where: { tenantId }, select: { url: true, timeoutMs: true } }));
}

/** The tenant's upstream, or null when it has none (whether the tenant exists is not checked). */
export async function findUpstream(tenantId: string): Promise<Upstream | null> {
  return view(await getDb().upstream.findUnique({ where: { tenantId }, select: { url: true, timeoutMs: true } }));
}

export async function getUpstream(tenantId: string): Promise<Upstream> {
  const db = getDb();
  const [tenant, upstream] = await Promise.all([
    db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }),
    db.upstream.findUnique({ where: { tenantId }, select: { url: true, timeoutMs: true } }),
  ]);
  if (!tenant) throw noTenant(tenantId);
  if (!upstream) throw noUpstream(tenantId);
  return { url: upstream.url, timeoutMs: upstream.timeoutMs };
}

/** Sets the upstream (`upstream` must have passed upstreamSchema). */
export async function putUpstreamIn(
  tx: Tx,
  actor: Actor,
  tenantId: string,
  upstream: Upstream,
  note: UpstreamChangeNote = {},
): Promise<ChangedUpstream> {
  await lockTenant(tx, tenantId);
  const before = await current(tx, tenantId);
  const row = await tx.upstream.upsert({
    where: { tenantId },
    create: { tenantId, url: upstream.url, timeoutMs: upstream.timeoutMs },
    update: { url: upstream.url, timeoutMs: upstream.timeoutMs },
  });
  const after = view(row);
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? "upstream.replace",
    target: `tenant:${tenantId}`,
    tenantId,
    before,
    after,
    revertOf: note.revertOf,
  });
  return { tenantId, upstream: after, audit };
}

/** Removes the upstream; 404 when the tenant has none. */
export async function deleteUpstreamIn(
  tx: Tx,
  actor: Actor,
  tenantId: string,
  note: UpstreamChangeNote = {},
): Promise<ChangedUpstream> {
  await lockTenant(tx, tenantId);
  const before = await current(tx, tenantId);
  if (!before) throw noUpstream(tenantId);
  await tx.upstream.delete({ where: { tenantId } });
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? "upstream.delete",
    target: `tenant:${tenantId}`,
    tenantId,
    before,
    after: null,
    revertOf: note.revertOf,
  });
  return { tenantId, upstream: null, audit };
}

export async function putUpstream(actor: Actor, tenantId: string, upstream: Upstream): Promise<ChangedUpstream> {
  return getDb().$transaction((tx) => putUpstreamIn(tx, actor, tenantId, upstream));
}

export async function deleteUpstream(actor: Actor, tenantId: string): Promise<ChangedUpstream> {
  return getDb().$transaction((tx) => deleteUpstreamIn(tx, actor, tenantId));
}
