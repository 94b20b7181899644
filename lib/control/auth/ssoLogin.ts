/**
 * The two single sign-on endpoints as functions of a Request, so the routes stay thin:
 * - `ssoStart`: 303 to the IdP's authorization URL with the pending-login cookie set;
 * - `ssoCallback`: finishes the login (ssoFlow.ts), finds or creates the operator
 *   (ssoOperators.ts), opens a session and answers 303 to the page the login started from, with
 *   the session cookie set.
 * Any failure answers 303 to `/login?sso_error=<code>` (ssoErrors.ts): no operator, no session.
 * Failures are logged with their cause (never a token), so an administrator can see why.
 */
import { config } from "../../config/config";
import { ensureFirstAdmin } from "./firstAdmin";
import { requestOrigin, isHttpsRequest } from "./requestOrigin";
import { sessionCookie } from "./sessionCookie";
import { createSession } from "./sessionStore";
import { SsoError, type SsoErrorCode } from "./ssoErrors";
import { beginSso, classifySsoFailure, finishSso } from "./ssoFlow";
import { operatorForSso } from "./ssoOperators";
import { clearedPendingSsoCookie, pendingSsoCookie, readPendingSso } from "./ssoPendingCookie";

export const SSO_CALLBACK_PATH = "/api/auth/sso/callback";

function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

function failed(error: unknown, cookies: string[]): Response {
  const sso = error instanceof SsoError ? error : classifySsoFailure(error);
  const cause = sso.cause instanceof Error ? `: ${sso.cause.name}: ${sso.cause.message}` : "";
  // sso_off is configuration, not an incident: not logged (anyone may open the URL).
  if (sso.code !== "sso_off") console.warn(`sluice: single sign-on refused (${sso.code})${cause}`);
  return redirect(`/login?sso_error=${sso.code satisfies SsoErrorCode}`, cookies);
}

const secureOf = (request: Request) => isHttpsRequest(request, config().trustProxy);

/** `next` must already be a path on this site. */
export async function ssoStart(request: Request, next: string): Promise<Response> {
  const settings = config().oidc;
  if (!settings) return failed(new SsoError("sso_off"), []);
  const redirectUri =
    settings.redirectUri?.href ?? `${requestOrigin(request, config().trustProxy) ?? ""}${SSO_CALLBACK_PATH}`;
  try {
    const { url, pending } = await beginSso(settings, redirectUri, next);
    return redirect(url.href, [pendingSsoCookie(pending, secureOf(request))]);
  } catch (error) {
    return failed(error, []);
  }
}

/** `safeNext` reduces the stored `next` to a path on this site once more. */
export async function ssoCallback(request: Request, safeNext: (next: string) => string): Promise<Response> {
  const secure = secureOf(request);
  const clear = clearedPendingSsoCookie(secure);
  const settings = config().oidc;
  if (!settings) return failed(new SsoError("sso_off"), [clear]);
  try {
    const pending = readPendingSso(request.headers, secure);
    const identity = await finishSso(settings, new URL(request.url), pending);
    await ensureFirstAdmin(); // as the password login does: the configured first admin comes first
    const operator = await operatorForSso(identity);
    const session = await createSession(operator.id, new Date(), identity.issuer);
    const maxAgeMs = session.expiresAt.getTime() - Date.now();
    return redirect(safeNext(pending?.next ?? "/"), [clear, sessionCookie(session.token, secure, maxAgeMs)]);
  } catch (error) {
    return failed(error, [clear]);
  }
}
