/**
 * A tenant's access lists in Postgres: read (GET) and replace (PUT), each replacement in ONE
 * transaction with its audit event (`access.replace`; before and after are `{ allow, deny }`, a
 * tenant that never had lists reading as both empty). `replaceAccessListsIn` joins a caller's
 * transaction (a revert's: lib/control/admin/revertChange.ts). Callers announce the tenant after the
 * commit, so every instance's access cache (lib/policy/compiled/accessCache.ts) recompiles the lists.
 *
 * Errors (AppError): `not_found` for an unknown tenant.
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type Actor, type AuditEventView } from "../audit/auditLog";
import { lockTenant, noTenant } from "../tenants/tenantLock";
import { EMPTY_ACCESS_LISTS, type AccessLists } from "./accessListSchema";

type Tx = Prisma.TransactionClient;

export const ACCESS_REPLACE_ACTION = "access.replace";

export interface ChangedAccessLists {
  tenantId: string;
  lists: AccessLists;
  audit: AuditEventView;
}

/** How a change is audited when it is not a plain PUT (a revert). */
export interface AccessChangeNote {
  action?: string;
  revertOf?: string;
}

const view = (row: { allow: string[]; deny: string[] } | null): AccessLists =>
  row ? { allow: row.allow, deny: row.deny } : { ...EMPTY_ACCESS_LISTS };

/** The tenant's lists (both empty when it never had any); 404 for an unknown tenant. */
export async function getAccessLists(tenantId: string): Promise<AccessLists> {
  const db = getDb();
  const [tenant, lists] = await Promise.all([
    db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }),
    db.accessLists.findUnique({ where: { tenantId }, select: { allow: true, deny: true } }),
  ]);
  if (!tenant) throw noTenant(tenantId);
  return view(lists);
}

/** Replaces both lists (`lists` must have passed accessListsSchema). */
export async function replaceAccessListsIn(
  tx: Tx,
  actor: Actor,
  tenantId: string,
  lists: AccessLists,
  note: AccessChangeNote = {},
): Promise<ChangedAccessLists> {
  await lockTenant(tx, tenantId);
  const before = view(await tx.accessLists.findUnique({ where: { tenantId }, select: { allow: true, deny: true } }));
  const row = await tx.accessLists.upsert({
    where: { tenantId },
    create: { tenantId, allow: lists.allow, deny: lists.deny },
    update: { allow: lists.allow, deny: lists.deny },
  });
  const after = view(row);
  const audit = await recordAudit(tx, actor, {
    action: note.action ?? ACCESS_REPLACE_ACTION,
    target: `tenant:${tenantId}`,
    tenantId,
    before,
    after,
    revertOf: note.revertOf,
  });
  return { tenantId, lists: after, audit };
}

export async function replaceAccessLists(
  actor: Actor,
  tenantId: string,
  lists: AccessLists,
): Promise<ChangedAccessLists> {
  return getDb().$transaction((tx) => replaceAccessListsIn(tx, actor, tenantId, lists));
}
