/**
 * Wraps an admin API handler: authorization first (read or write: the bearer token, or the
 * operator session cookie with its same-origin check, lib/control/auth/sessionResolver.ts), then the
 * handler. A tenant-limited actor (a scoped API token) is refused with 403 unless the route's
 * resource belongs to its tenant (lib/control/admin/tenantScope.ts; `options.tenantOf` names the
 * resource's tenant where the path parameters do not; `options.filtersByTenant` marks a listing
 * that answers a limited actor only its own tenants' rows, so it is not refused). Any thrown error becomes a problem response (lib/http/problem.ts). Route files stay
 * thin glue. A change whose notice to the other instances could not be sent gets
 * `Sluice-Propagation: delayed` and a `Warning` on its answer (lib/policy/changes/changeReach.ts).
 */
import type { Actor } from "../../policy/audit/auditLog";
import { sessionActor } from "../auth/sessionResolver";
import { problemFromError } from "../../http/problem";
import { authorize, type Access } from "./authorize";
import { assertInScope, type TenantOf } from "./tenantScope";
import { changeReachHeaders, trackChangeReach } from "../../policy/changes/changeReach";

export type AdminHandler<P> = (request: Request, actor: Actor, params: P) => Promise<Response>;

/** Next passes route params as a promise (`{ params: Promise<P> }`). */
export interface RouteContext<P> {
  params: Promise<P>;
}

export function adminRoute<P = Record<string, never>>(
  access: Access,
  handler: AdminHandler<P>,
  options: { tenantOf?: TenantOf<P>; filtersByTenant?: boolean } = {},
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    try {
      const actor = await authorize(request, access, { session: sessionActor });
      const params = await context.params;
      // A tenant-scoped API token keeps the contract's 403 on the tenant list (an instance-wide call);
      // only a limited operator's dashboard session gets the list narrowed to its tenants.
      if (!options.filtersByTenant || actor.tenantId) await assertInScope(actor, request, params, options.tenantOf);
      const { value: response, note } = await trackChangeReach(() => handler(request, actor, params));
      return withHeaders(response, changeReachHeaders(note));
    } catch (error) {
      return problemFromError(error);
    }
  };
}

/** `response` with `extra` headers set (a copy: a handler's Response may have immutable headers). */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  if (Object.keys(extra).length === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
