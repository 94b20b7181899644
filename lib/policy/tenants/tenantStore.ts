/**
 * Tenants: create (audited, 409 on a duplicate name) and list (with each tenant's count of live
 * keys: neither revoked nor expired).
 */
import { getDb } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { AppError } from "../../http/errors";
import { newId } from "../../common/ids";
import { recordAudit, type Actor } from "../audit/auditLog";
import type { TenantListItem, TenantView } from "./tenantAnswers";

export type { TenantListItem, TenantView } from "./tenantAnswers";

const view = (t: { id: string; name: string; createdAt: Date }): TenantView => ({
  id: t.id,
  name: t.name,
  createdAt: t.createdAt.toISOString(),
});

/** Whether a unique violation concerns the given column (vs. an id collision, which is retried). */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return false;
  if (!column) return true;
  const text = JSON.stringify(error.meta ?? {}) + error.message;
  return text.includes(column);
}

/** Runs `create` with fresh ids until one is not taken (an 8-char id collides very rarely). */
export async function withFreshId<T>(create: (id: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await create(newId());
    } catch (error) {
      // Only `name` is unique besides the id (and the key prefix derived from it).
      if (attempt < 4 && isUniqueViolation(error) && !isUniqueViolation(error, "name")) continue;
      throw error;
    }
  }
}

export async function createTenant(actor: Actor, name: string): Promise<TenantView> {
  try {
    return await withFreshId((id) =>
      getDb().$transaction(async (tx) => {
        const tenant = await tx.tenant.create({ data: { id, name } });
        await recordAudit(tx, actor, {
          action: "tenant.create",
          target: `tenant:${id}`,
          tenantId: id,
          after: view(tenant),
        });
        return view(tenant);
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error, "name"))
      throw new AppError("conflict", `A tenant named ${JSON.stringify(name)} already exists.`);
    throw error;
  }
}

/** Every tenant, or only those of `only` (a tenant-limited actor's; ids of deleted tenants are skipped). */
export async function listTenants(now = new Date(), only: readonly string[] | null = null): Promise<TenantListItem[]> {
  const live = { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  const rows = await getDb().tenant.findMany({
    where: only ? { id: { in: [...only] } } : undefined,
    orderBy: { createdAt: "asc" },
    include: { _count: { select: { keys: { where: live } } } },
  });
  return rows.map((row) => ({ ...view(row), keyCount: row._count.keys }));
}

export async function getTenant(tenantId: string): Promise<TenantView> {
  const row = await getDb().tenant.findUnique({ where: { id: tenantId } });
  if (!row) throw new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
  return view(row);
}
