/**
 * The answers of the session endpoints, with the session cookie set or cleared. `Secure` follows
 * the request's own protocol (requestOrigin.ts), so the cookie works on http://localhost and is
 * never sent in clear once the site is served over HTTPS. Never cached.
 */
import { config } from "../../config/config";
import type { LoggedIn } from "./login";
import type { LogoutAnswer } from "./operatorSchemas";
import { isHttpsRequest } from "./requestOrigin";
import { clearedSessionCookie, sessionCookie } from "./sessionCookie";

const secure = (request: Request): boolean => isHttpsRequest(request, config().trustProxy);

/** 200 `{ email, role }` with the new session's cookie. */
export function loggedInResponse(request: Request, loggedIn: LoggedIn): Response {
  const maxAgeMs = loggedIn.session.expiresAt.getTime() - Date.now();
  return Response.json(loggedIn.operator, {
    headers: {
      "Set-Cookie": sessionCookie(loggedIn.session.token, secure(request), maxAgeMs),
      "Cache-Control": "no-store",
    },
  });
}

/**
 * 204 that makes the browser drop the session cookie; after a single sign-on session whose IdP
 * ends sessions (ssoLogout.ts), 200 `{ endSessionUrl }`: the page to send the browser to next.
 */
export function loggedOutResponse(request: Request, endSessionUrl: URL | null = null): Response {
  const headers = { "Set-Cookie": clearedSessionCookie(secure(request)), "Cache-Control": "no-store" };
  if (endSessionUrl) return Response.json({ endSessionUrl: endSessionUrl.href } satisfies LogoutAnswer, { headers });
  return new Response(null, { status: 204, headers });
}
