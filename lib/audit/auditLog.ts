/**
 * The audit trail: every change made through the admin API, written inside the change's own
 * transaction (so a change without its audit event cannot exist), and read newest first.
 */
import type { Prisma } from "../db/generated/client";
import { getDb } from "../db/client";

export interface Actor {
  /** `token` for the admin bearer token, `operator:<email>` for a dashboard session. */
  id: string;
  role: "admin" | "viewer";
}

export interface AuditEntry {
  action: string;
  target: string;
  tenantId?: string | null;
  before?: unknown;
  after?: unknown;
}

type Tx = Prisma.TransactionClient;

const asJson = (value: unknown): Prisma.InputJsonValue | undefined =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);

export async function recordAudit(tx: Tx, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({
    data: {
      actor: actor.id,
      action: entry.action,
      target: entry.target,
      tenantId: entry.tenantId ?? null,
      before: asJson(entry.before),
      after: asJson(entry.after),
    },
  });
}

export interface AuditEventView {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  tenantId: string | null;
  before: unknown;
  after: unknown;
}

export async function listAudit(query: { tenantId?: string; limit: number }): Promise<AuditEventView[]> {
  const rows = await getDb().auditEvent.findMany({
    where: query.tenantId ? { tenantId: query.tenantId } : {},
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  return rows.map((row) => ({
    id: row.id.toString(),
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    target: row.target,
    tenantId: row.tenantId,
    before: row.before ?? null,
    after: row.after ?? null,
  }));
}
