/**
 * The callers of the authorization matrix, each a set of request headers (session callers get
 * sessions of their own, fresh for a logout so that ending one never affects the next call), and the status each kind of route owes each caller (CONTRACT.md "Admin API":
 * missing or wrong credentials 401, a viewer changing state 403; lib/control/auth/sessionResolver.ts: a
 * cookie-carried change must name this origin, else 403).
 */
import { ORIGIN } from "@/test/support/routeCall";
import type { MethodSpec } from "./routeSpecs";
import { tokenOfCookie, type Fixture } from "./securityFixtures";

export const OTHER_ORIGIN = "https://evil.example";

export const CALLERS = [
  "anonymous",
  "viewer session",
  "admin session",
  "admin token",
  "API key as bearer",
  "API key in x-api-key",
  "random bearer",
  "empty bearer",
  "Basic credentials",
  "session token as bearer",
  "expired session",
  "ended session",
  "admin session, cross-origin (CSRF)",
  "admin session, no Origin (CSRF)",
  "viewer session, cross-origin (CSRF)",
] as const;

export type Caller = (typeof CALLERS)[number];

export interface Credentials {
  viewerId: string;
  adminId: string;
}

const sessions = new Map<string, Promise<string>>();

/**
 * The caller's headers. Sessions are made once per caller and kind, unless `fresh` (a logout
 * ends the session it is called with).
 */
export async function headersOf(
  caller: Caller,
  fx: Fixture,
  who: Credentials,
  { fresh = false } = {},
): Promise<Record<string, string>> {
  const cookie = (id: string, state: "live" | "expired" | "ended" = "live") => {
    const key = `${caller}/${id}/${state}`;
    // An expired row is deleted by the next session made, so each call gets one of its own.
    if (fresh || state === "expired") return fx.sec.sessionCookie(id, state);
    if (!sessions.has(key)) sessions.set(key, fx.sec.sessionCookie(id, state));
    return sessions.get(key)!;
  };
  switch (caller) {
    case "anonymous":
      return {};
    case "viewer session":
      return { cookie: await cookie(who.viewerId), origin: ORIGIN };
    case "admin session":
      return { cookie: await cookie(who.adminId), origin: ORIGIN };
    case "admin token":
      return fx.sec.env.auth;
    case "API key as bearer":
      return { authorization: `Bearer ${fx.apiKey}` };
    case "API key in x-api-key":
      return { "x-api-key": fx.apiKey };
    case "random bearer":
      return { authorization: `Bearer ${fx.sec.env.token}x` };
    case "empty bearer":
      return { authorization: "Bearer " };
    case "Basic credentials":
      return { authorization: `Basic ${Buffer.from(`admin:${fx.sec.env.token}`).toString("base64")}` };
    case "session token as bearer":
      return { authorization: `Bearer ${tokenOfCookie(await cookie(who.adminId))}` };
    case "expired session":
      return { cookie: await cookie(who.adminId, "expired"), origin: ORIGIN };
    case "ended session":
      return { cookie: await cookie(who.adminId, "ended"), origin: ORIGIN };
    case "admin session, cross-origin (CSRF)":
      return { cookie: await cookie(who.adminId), origin: OTHER_ORIGIN };
    case "admin session, no Origin (CSRF)":
      return { cookie: await cookie(who.adminId) };
    case "viewer session, cross-origin (CSRF)":
      return { cookie: await cookie(who.viewerId), origin: OTHER_ORIGIN };
  }
}

const LIVE_SESSION = new Set<Caller>([
  "viewer session",
  "admin session",
  "admin session, cross-origin (CSRF)",
  "admin session, no Origin (CSRF)",
  "viewer session, cross-origin (CSRF)",
]);
const VIEWER = new Set<Caller>(["viewer session", "viewer session, cross-origin (CSRF)"]);
const CROSS_SITE = new Set<Caller>([
  "admin session, cross-origin (CSRF)",
  "admin session, no Origin (CSRF)",
  "viewer session, cross-origin (CSRF)",
]);

/** The status `caller` must get from `method` of this kind whose allowed call answers `ok`. */
export function expectedStatus(spec: MethodSpec, method: string, caller: Caller, ok: number): number {
  switch (spec.kind) {
    case "not_allowed":
      return 405;
    case "public":
      return ok;
    case "read":
      // A GET is a safe method: no CSRF check, so any live session (and the token) reads.
      if (method !== "GET" && CROSS_SITE.has(caller)) return 403;
      return LIVE_SESSION.has(caller) || caller === "admin token" ? ok : 401;
    case "admin_read":
      if (caller === "admin token" || (LIVE_SESSION.has(caller) && !VIEWER.has(caller))) return ok;
      return VIEWER.has(caller) ? 403 : 401;
    case "write":
      if (caller === "admin session" || caller === "admin token") return ok;
      if (CROSS_SITE.has(caller)) return 403;
      return caller === "viewer session" ? 403 : 401;
    case "login":
      // Open to anyone with the password; refused only when it names another origin (login CSRF).
      return caller === "admin session, cross-origin (CSRF)" || caller === "viewer session, cross-origin (CSRF)"
        ? 403
        : ok;
    case "logout":
      // Ends the cookie's session, if any, under the same origin check as any cookie-carried change.
      return CROSS_SITE.has(caller) ? 403 : ok;
    case "me":
      return LIVE_SESSION.has(caller) ? ok : 401;
  }
}
