/**
 * Operators: list, create, change role and/or password, delete. Every change is audited in its
 * own transaction (`operator.create`, `operator.update`, `operator.delete`, target
 * `operator:<id>`); views and audit entries never carry the password hash.
 *
 * - A duplicate email is a 409. An unknown id is a 404.
 * - The last admin can be neither deleted nor demoted (409). Changes that could remove an admin
 *   take one transaction-scoped advisory lock, so two concurrent demotions cannot both see
 *   "another admin is left" and leave none.
 * - A password change ends every session of that operator (a stolen session dies with the old
 *   password); a role change needs nothing: sessions read the role on each request.
 * - `tenantIds` limits an operator to those tenants (lib/control/admin/tenantScope.ts); `[]` lifts
 *   the limit. Unknown tenant ids are a 422. The last admin without a tenant limit can be neither
 *   deleted, demoted nor limited (409): someone must be able to manage the whole instance.
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { AppError } from "../../http/errors";
import { recordAudit, type Actor } from "../../policy/audit/auditLog";
import { isUniqueViolation } from "../../policy/tenants/tenantStore";
import type { CreateOperatorInput, OperatorView, Role, UpdateOperatorInput } from "./operatorSchemas";
import { hashPassword } from "./passwordHash";

export type { OperatorView };

type OperatorRow = { id: string; email: string; role: Role; tenantIds?: string[] | null; createdAt: Date };
type Tx = Prisma.TransactionClient;

export const operatorView = (o: OperatorRow): OperatorView => ({
  id: o.id,
  email: o.email,
  role: o.role,
  tenantIds: o.tenantIds ?? [],
  createdAt: o.createdAt.toISOString(),
});

const operatorMissing = (id: string) => new AppError("not_found", `No operator with id ${JSON.stringify(id)}.`);

/** Serializes every change to the set of admins (and the first-admin bootstrap). */
export async function lockOperators(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('sluice.operators'))`;
}

async function assertAnotherAdmin(tx: Tx, operatorId: string): Promise<void> {
  const others = await tx.operator.count({
    where: { role: "admin", tenantIds: { isEmpty: true }, id: { not: operatorId } },
  });
  if (others === 0)
    throw new AppError(
      "conflict",
      "This is the last admin without a tenant limit: make another operator such an admin first.",
    );
}

const isUnlimitedAdmin = (o: { role: Role; tenantIds: string[] | null }) =>
  o.role === "admin" && (o.tenantIds ?? []).length === 0;

/** 422 naming `tenantIds` when one of `ids` is not a tenant. */
async function assertTenantsExist(tx: Tx, ids: string[] | undefined): Promise<void> {
  if (!ids || ids.length === 0) return;
  const found = await tx.tenant.findMany({ where: { id: { in: ids } }, select: { id: true } });
  const missing = ids.filter((id) => !found.some((t) => t.id === id));
  if (missing.length > 0)
    throw new AppError("invalid", `No tenant with id ${missing[0]}.`, {
      errors: { tenantIds: [`no tenant has the id ${missing[0]}`] },
    });
}

export async function listOperators(): Promise<OperatorView[]> {
  const rows = await getDb().operator.findMany({ orderBy: [{ createdAt: "asc" }, { email: "asc" }] });
  return rows.map(operatorView);
}

export async function getOperator(id: string): Promise<OperatorView> {
  const row = await getDb().operator.findUnique({ where: { id } });
  if (!row) throw operatorMissing(id);
  return operatorView(row);
}

export async function createOperator(actor: Actor, input: CreateOperatorInput): Promise<OperatorView> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await getDb().$transaction(async (tx) => {
      await assertTenantsExist(tx, input.tenantIds);
      const row = await tx.operator.create({
        data: { email: input.email, passwordHash, role: input.role, tenantIds: input.tenantIds ?? [] },
      });
      await recordAudit(tx, actor, {
        action: "operator.create",
        target: `operator:${row.id}`,
        after: operatorView(row),
      });
      return operatorView(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, "email"))
      throw new AppError("conflict", `An operator with email ${JSON.stringify(input.email)} already exists.`);
    throw error;
  }
}

export async function updateOperator(actor: Actor, id: string, input: UpdateOperatorInput): Promise<OperatorView> {
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  return getDb().$transaction(async (tx) => {
    if (input.role === "viewer" || (input.tenantIds?.length ?? 0) > 0) await lockOperators(tx);
    const before = await tx.operator.findUnique({ where: { id } });
    if (!before) throw operatorMissing(id);
    await assertTenantsExist(tx, input.tenantIds);
    const after = { role: input.role ?? before.role, tenantIds: input.tenantIds ?? before.tenantIds };
    if (isUnlimitedAdmin(before) && !isUnlimitedAdmin(after)) await assertAnotherAdmin(tx, id);
    const row = await tx.operator.update({
      where: { id },
      data: { role: input.role, passwordHash, tenantIds: input.tenantIds },
    });
    if (passwordHash !== undefined) await tx.session.deleteMany({ where: { operatorId: id } });
    await recordAudit(tx, actor, {
      action: "operator.update",
      target: `operator:${id}`,
      before: operatorView(before),
      after: { ...operatorView(row), ...(passwordHash !== undefined ? { passwordChanged: true } : {}) },
    });
    return operatorView(row);
  });
}

/** Deletes an operator and (by cascade) its sessions. */
export async function deleteOperator(actor: Actor, id: string): Promise<void> {
  await getDb().$transaction(async (tx) => {
    await lockOperators(tx);
    const before = await tx.operator.findUnique({ where: { id } });
    if (!before) throw operatorMissing(id);
    if (isUnlimitedAdmin(before)) await assertAnotherAdmin(tx, id);
    await tx.operator.delete({ where: { id } });
    await recordAudit(tx, actor, { action: "operator.delete", target: `operator:${id}`, before: operatorView(before) });
  });
}

/** The operator with this (normalized) email and its hash: for the login only. */
export async function findOperatorForLogin(
  email: string,
): Promise<(OperatorRow & { passwordHash: string | null }) | null> {
  return getDb().operator.findUnique({ where: { email } });
}
