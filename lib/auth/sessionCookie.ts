/**
 * The session cookie `sluice_session`: HttpOnly (no script reads it), SameSite=Lax (not sent on
 * cross-site subrequests or cross-site POSTs), Path=/, Max-Age 12 h (the session's lifetime),
 * Secure when the request came over HTTPS (see requestOrigin.ts). Reading takes the first
 * `sluice_session` pair of the Cookie header.
 */

export const SESSION_COOKIE = "sluice_session";
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

function attributes(maxAgeSeconds: number, secure: boolean): string {
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Set-Cookie value for a new session; `token` is base64url, so it needs no quoting. */
export function sessionCookie(token: string, secure: boolean, maxAgeMs = SESSION_TTL_MS): string {
  return `${SESSION_COOKIE}=${token}; ${attributes(Math.max(0, Math.floor(maxAgeMs / 1000)), secure)}`;
}

/** Set-Cookie value that makes the browser drop the cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; ${attributes(0, secure)}`;
}

/** The session cookie's value in a request, or null when there is none. */
export function readSessionCookie(headers: Headers): string | null {
  const header = headers.get("cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    return value === "" ? null : value;
  }
  return null;
}
