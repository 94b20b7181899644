/**
 * The audit trail: every change made through the admin API, written inside the change's own
 * transaction (so a change without its audit event cannot exist), and read newest first in pages.
 *
 * Reading: `listAudit` answers at most `limit` events ordered by (at, id) descending, optionally
 * of one tenant, optionally strictly older than the event `before` (keyset cursor: pass the id of
 * the last event of the previous page; a page shorter than `limit` is the last). An unknown cursor
 * is a 422 naming `before`. Filters: `actor` (exact), `action` (exact, or every action under a
 * prefix ending in `.`, e.g. `rules.`), `from` / `to` (time bounds, `to` exclusive). Each event of
 * a key carries the key's name (`targetName`) when the key still exists, so the log reads in names.
 * A webhook URL in an `alerts.*` event is shown only as its hint (lib/http/capabilityUrl.ts), also in
 * events written before the store kept only the hint: viewers read the log, and the URL is a secret.
 */
import type { Prisma } from "../../db/generated/client";
import { getDb } from "../../db/client";
import { AppError } from "../../http/errors";
import { isRevertible } from "./revertPlan";
import { capabilityUrlHint } from "../../http/capabilityUrl";

export interface Actor {
  /**
   * `token` for the environment's admin token (SLUICE_ADMIN_TOKEN), `token:<name>` for a scoped
   * API token (lib/control/tokens), `operator:<email>` for a dashboard session.
   */
  id: string;
  role: "admin" | "viewer";
  /** The one tenant this actor may touch (a tenant-limited token); absent or null: every tenant. */
  tenantId?: string | null;
  /** The tenants this actor may touch (a tenant-limited operator); absent or empty: every tenant. */
  tenantIds?: readonly string[];
}

export interface AuditEntry {
  action: string;
  target: string;
  tenantId?: string | null;
  before?: unknown;
  after?: unknown;
  /** The id of the event this change reverts (POST /api/admin/audit/{id}/revert). */
  revertOf?: string;
}

type Tx = Prisma.TransactionClient;

const asJson = (value: unknown): Prisma.InputJsonValue | undefined =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);

import type { AuditEventView } from "./auditAnswers";

export type { AuditEventView };

type AuditRow = {
  id: bigint;
  at: Date;
  actor: string;
  action: string;
  target: string;
  tenantId: string | null;
  before: Prisma.JsonValue | null;
  after: Prisma.JsonValue | null;
  revertOf: bigint | null;
};

/** An `alerts.*` event's settings with the webhook URL as its hint (idempotent: new events store the hint). */
function withWebhookHint(action: string, state: Prisma.JsonValue | null): Prisma.JsonValue | null {
  if (!action.startsWith("alerts.") || state === null || typeof state !== "object" || Array.isArray(state))
    return state;
  const url = (state as Prisma.JsonObject).webhookUrl;
  return typeof url === "string" ? { ...state, webhookUrl: capabilityUrlHint(url) } : state;
}

export const auditView = (raw: AuditRow): AuditEventView => {
  const row = {
    ...raw,
    before: withWebhookHint(raw.action, raw.before),
    after: withWebhookHint(raw.action, raw.after),
  };
  return rowView(row);
};

const rowView = (row: AuditRow): AuditEventView => ({
  id: row.id.toString(),
  at: row.at.toISOString(),
  actor: row.actor,
  action: row.action,
  target: row.target,
  tenantId: row.tenantId,
  before: row.before ?? null,
  after: row.after ?? null,
  revertOf: row.revertOf?.toString() ?? null,
  revertible: isRevertible({
    id: row.id.toString(),
    action: row.action,
    target: row.target,
    before: row.before ?? null,
    after: row.after ?? null,
  }),
});

export async function recordAudit(tx: Tx, actor: Actor, entry: AuditEntry): Promise<AuditEventView> {
  const row = await tx.auditEvent.create({
    data: {
      actor: actor.id,
      action: entry.action,
      target: entry.target,
      tenantId: entry.tenantId ?? null,
      before: asJson(entry.before),
      after: asJson(entry.after),
      revertOf: entry.revertOf === undefined ? null : BigInt(entry.revertOf),
    },
  });
  return auditView(row);
}

export interface AuditQuery {
  tenantId?: string;
  limit: number;
  /** Id of the last event already shown: answer only older ones. */
  before?: string;
  actor?: string;
  action?: string;
  from?: Date;
  to?: Date;
}

async function olderThan(cursorId: string): Promise<Prisma.AuditEventWhereInput> {
  const cursor = await getDb().auditEvent.findUnique({
    where: { id: BigInt(cursorId) },
    select: { id: true, at: true },
  });
  if (!cursor)
    throw new AppError("invalid", `No audit event with id ${cursorId} to page from.`, {
      errors: { before: ["before must be the id of an audit event"] },
    });
  return { OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] };
}

export async function listAudit(query: AuditQuery): Promise<AuditEventView[]> {
  const where: Prisma.AuditEventWhereInput[] = [];
  if (query.tenantId) where.push({ tenantId: query.tenantId });
  if (query.before !== undefined) where.push(await olderThan(query.before));
  if (query.actor !== undefined) where.push({ actor: query.actor });
  if (query.action !== undefined)
    where.push(query.action.endsWith(".") ? { action: { startsWith: query.action } } : { action: query.action });
  if (query.from !== undefined) where.push({ at: { gte: query.from } });
  if (query.to !== undefined) where.push({ at: { lt: query.to } });
  const rows = await getDb().auditEvent.findMany({
    where: { AND: where },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  const keyIds = [...new Set(rows.flatMap((r) => (r.target.startsWith("key:") ? [r.target.slice(4)] : [])))];
  const keys =
    keyIds.length > 0
      ? await getDb().apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } })
      : [];
  const keyName = new Map(keys.map((k) => [k.id, k.name]));
  const revertedBy = await liveReverts(rows.map((r) => r.id));
  return rows.map((row) => ({
    ...auditView(row),
    targetName: row.target.startsWith("key:") ? (keyName.get(row.target.slice(4)) ?? null) : null,
    revertedBy: revertedBy.get(row.id.toString()) ?? null,
  }));
}

/**
 * For each event id, its latest revert that is not reverted in turn (a revert of a revert puts the
 * change back in force). Two reads, whatever the page size.
 */
async function liveReverts(ids: bigint[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const reverts = await getDb().auditEvent.findMany({
    where: { revertOf: { in: ids } },
    select: { id: true, revertOf: true },
    orderBy: { id: "asc" },
  });
  if (reverts.length === 0) return out;
  const undone = await getDb().auditEvent.findMany({
    where: { revertOf: { in: reverts.map((r) => r.id) } },
    select: { revertOf: true },
  });
  const undoneIds = new Set(undone.map((u) => u.revertOf!.toString()));
  for (const r of reverts) {
    const of = r.revertOf!.toString();
    if (undoneIds.has(r.id.toString())) out.delete(of);
    else out.set(of, r.id.toString());
  }
  return out;
}
