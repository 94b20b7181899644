/**
 * The admin API's session resolver (lib/control/admin/authorize.ts `SessionResolver`): the operator
 * behind the request's session cookie (`__Host-sluice_session` over HTTPS, `sluice_session` over
 * plain HTTP: lib/control/auth/sessionCookie.ts), as an audit actor `operator:<email>`.
 *
 * - No cookie, or a cookie naming no live session: null (authorize answers 401).
 * - CSRF: a state-changing request (anything but GET, HEAD, OPTIONS) carried by the cookie must
 *   name this origin in `Origin` (or `Referer`); otherwise AppError `csrf` (403), before any
 *   database work. Bearer-token requests never get here (authorize checks the token first), and
 *   browsers do not attach bearer tokens by themselves, so they need no such check.
 * - A login is checked only when it names an origin (a script's login sends neither header);
 *   logout ends the cookie's session, under the same check as any cookie-carried change.
 */
import "server-only";
import type { Actor } from "../../policy/audit/auditLog";
import { config } from "../../config/config";
import { AppError } from "../../http/errors";
import { originCheck, isHttpsRequest, isStateChanging } from "./requestOrigin";
import { readSessionCookie } from "./sessionCookie";
import { deleteSession, findSession, type OperatorSession } from "./sessionStore";

const cookieOf = (request: Request): string | null =>
  readSessionCookie(request.headers, isHttpsRequest(request, config().trustProxy));

export const operatorActorId = (email: string): string => `operator:${email}`;

/** Throws `csrf` unless a cookie-carried change comes from this origin. */
export function assertSameOriginWrite(request: Request, trust = config().trustProxy): void {
  if (!isStateChanging(request.method)) return;
  const verdict = originCheck(request, trust);
  if (verdict === "same") return;
  throw new AppError(
    "csrf",
    verdict === "missing"
      ? "A change made with a session cookie must carry an Origin (or Referer) header naming this site."
      : "Cross-origin request refused: a change made with a session cookie must come from this site.",
  );
}

/** Login CSRF: a login that names another origin (Origin, else Referer) is refused. */
export function assertSameOriginLogin(request: Request, trust = config().trustProxy): void {
  if (originCheck(request, trust) === "cross") {
    throw new AppError("csrf", "Cross-origin login refused: log in from this site's own login page.");
  }
}

/** The live session of the request's cookie, or null. Applies the CSRF check first. */
export async function requestSession(request: Request): Promise<OperatorSession | null> {
  const token = cookieOf(request);
  if (token === null) return null;
  assertSameOriginWrite(request);
  return findSession(token);
}

export async function sessionActor(request: Request): Promise<Actor | null> {
  const session = await requestSession(request);
  if (!session) return null;
  const limit = session.tenantIds.length > 0 ? { tenantIds: session.tenantIds } : {};
  return { id: operatorActorId(session.email), role: session.role, ...limit };
}

/** Logout: ends the session of the request's cookie, if any; answers its single sign-on issuer, if any. */
export async function endRequestSession(request: Request): Promise<{ ssoIssuer: string | null } | null> {
  const token = cookieOf(request);
  if (token === null) return null;
  assertSameOriginWrite(request);
  return deleteSession(token);
}
