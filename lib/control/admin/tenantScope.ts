/**
 * The tenant limit of a scoped API token (lib/control/tokens) or of an operator limited to some
 * tenants (Operator.tenantIds), applied by adminRoute to every admin route in one place.
 *
 * Decisions
 * - An actor without a tenant limit (SLUICE_ADMIN_TOKEN, unlimited operators and tokens) passes.
 * - A limited actor passes only when the route's resource belongs to one of its tenants: the `tenantId`
 *   path parameter, or the tenant of the `keyId` path parameter's key, or what the route names
 *   itself (the audit log and the monitoring queries: their `?tenantId=` filter, `tenantOfQuery`;
 *   given twice it counts as absent). The tenant list answers an operator limited to tenants its
 *   own tenants only (`filtersByTenant`, adminEndpoint.ts), so its dashboard works; a tenant-scoped
 *   token gets the contract's 403 there, as on every instance-wide call. Anything else is instance-wide (creating
 *   tenants, operators, tokens, monitoring without a tenant, the audit log unfiltered, reverting an
 *   audit event) and is a 403, as is another tenant's resource. A key that does not exist belongs
 *   to no tenant the actor could see: 403, which tells nothing of other tenants' keys.
 * - Token management needs an admin without a tenant limit (`assertUnscopedAdmin`): a limited token
 *   must not mint a wider one.
 */
import { getDb } from "../../db/client";
import { AppError } from "../../http/errors";
import type { Actor } from "../../policy/audit/auditLog";

/** The tenant a request's resource belongs to, or null for an instance-wide call. */
export type TenantOf<P> = (request: Request, params: P) => string | null | Promise<string | null>;

/** Default: the `tenantId` path parameter, else the tenant of the `keyId` path parameter's key. */
export async function tenantOfParams(_request: Request, params: unknown): Promise<string | null> {
  const p = (params ?? {}) as { tenantId?: unknown; keyId?: unknown };
  if (typeof p.tenantId === "string") return p.tenantId;
  if (typeof p.keyId === "string") {
    const key = await getDb().apiKey.findUnique({ where: { id: p.keyId }, select: { tenantId: true } });
    return key?.tenantId ?? null;
  }
  return null;
}

/**
 * The `?tenantId=` filter as the resource's tenant; null (instance-wide) when absent, empty or
 * repeated, so `?tenantId=mine&tenantId=other` can never pass the check on one value and be
 * answered for the other.
 */
export function tenantOfQuery(request: Request): string | null {
  const values = new URL(request.url).searchParams.getAll("tenantId");
  return values.length === 1 && values[0] ? values[0] : null;
}

/** The tenants `actor` is limited to, or null when it may touch every tenant. */
export function allowedTenants(actor: Actor): readonly string[] | null {
  if (actor.tenantId) return [actor.tenantId];
  if (actor.tenantIds && actor.tenantIds.length > 0) return actor.tenantIds;
  return null;
}

/** Pure decision: whether `actor` may touch a resource of `resourceTenant` (null: instance-wide). */
export function scopeRefusal(actor: Actor, resourceTenant: string | null): string | null {
  const allowed = allowedTenants(actor);
  if (!allowed) return null;
  const who = actor.tenantId
    ? `This token is limited to tenant ${actor.tenantId}`
    : `This operator is limited to tenant${allowed.length > 1 ? "s" : ""} ${allowed.join(", ")}`;
  if (resourceTenant === null) return `${who}: instance-wide calls are refused.`;
  if (!allowed.includes(resourceTenant)) return `${who}: other tenants' resources are refused.`;
  return null;
}

export async function assertInScope<P>(
  actor: Actor,
  request: Request,
  params: P,
  tenantOf: TenantOf<P> = tenantOfParams,
): Promise<void> {
  if (!allowedTenants(actor)) return; // no lookup for unlimited actors
  const refusal = scopeRefusal(actor, await tenantOf(request, params));
  if (refusal) throw new AppError("forbidden", refusal);
}

/** Token management (and other calls that could widen access): an admin without a tenant limit. */
export function assertUnscopedAdmin(actor: Actor): void {
  if (actor.role !== "admin" || allowedTenants(actor))
    throw new AppError("forbidden", "Only an admin without a tenant limit may manage API tokens.");
}
