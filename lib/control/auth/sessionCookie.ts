/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site
 * subrequests or cross-site POSTs), Path=/, Max-Age 12 h (the session's lifetime).
 *
 * Its name follows the request's protocol (requestOrigin.ts):
 * - over HTTPS, `__Host-sluice_session`, always Secure: browsers accept a `__Host-` cookie only
 *   with Secure, Path=/ and no Domain, so a sibling subdomain (or a plain-HTTP page on the same
 *   host) can neither plant nor overwrite it, and the plain name is then not read at all;
 * - over plain HTTP (the demo and the browser tests run on http://127.0.0.1), `sluice_session`
 *   without Secure: browsers refuse a Secure cookie set by a non-secure origin (some make an
 *   exception for localhost, which is not something to rely on).
 * Reading takes the first pair of the name for the request's protocol in the Cookie header.
 */

export const SESSION_COOKIE = "sluice_session";
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** The cookie's name for a request over HTTPS (`secure`) or plain HTTP. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

function attributes(maxAgeSeconds: number, secure: boolean): string {
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Set-Cookie value for a new session; `token` is base64url, so it needs no quoting. */
export function sessionCookie(token: string, secure: boolean, maxAgeMs = SESSION_TTL_MS): string {
  return `${sessionCookieName(secure)}=${token}; ${attributes(Math.max(0, Math.floor(maxAgeMs / 1000)), secure)}`;
}

/** Set-Cookie value that makes the browser drop the cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName(secure)}=; ${attributes(0, secure)}`;
}

/** The session cookie's value in a request over HTTPS (`secure`) or plain HTTP, or null when there is none. */
export function readSessionCookie(headers: Headers, secure: boolean): string | null {
  const header = headers.get("cookie");
  if (!header) return null;
  const name = sessionCookieName(secure);
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    return value === "" ? null : value;
  }
  return null;
}
