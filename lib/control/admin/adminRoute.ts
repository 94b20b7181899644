/**
 * Wraps an admin API handler: authorization first (read or write: the bearer token, or the
 * operator session cookie with its same-origin check, lib/control/auth/sessionResolver.ts), then the
 * handler; any thrown error becomes a problem response (lib/http/problem.ts). Route files stay
 * thin glue.
 */
import type { Actor } from "../../policy/audit/auditLog";
import { sessionActor } from "../auth/sessionResolver";
import { problemFromError } from "../../http/problem";
import { authorize, type Access } from "./authorize";

export type AdminHandler<P> = (request: Request, actor: Actor, params: P) => Promise<Response>;

/** Next passes route params as a promise (`{ params: Promise<P> }`). */
export interface RouteContext<P> {
  params: Promise<P>;
}

export function adminRoute<P = Record<string, never>>(
  access: Access,
  handler: AdminHandler<P>,
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    try {
      const actor = await authorize(request, access, { session: sessionActor });
      return await handler(request, actor, await context.params);
    } catch (error) {
      return problemFromError(error);
    }
  };
}
