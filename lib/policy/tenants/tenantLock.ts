/**
 * Holds a tenant's row for the rest of a transaction (`SELECT ... FOR UPDATE`), so writers of one
 * tenant's settings (upstream, access lists) take turns and read the `before` their audit event
 * records under the lock. AppError `not_found` when the tenant does not exist.
 */
import type { Prisma } from "../../db/generated/client";
import { AppError } from "../../http/errors";

export const noTenant = (tenantId: string): AppError =>
  new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);

export async function lockTenant(tx: Prisma.TransactionClient, tenantId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Tenant" WHERE id = ${tenantId} FOR UPDATE`;
  if (rows.length === 0) throw noTenant(tenantId);
}
