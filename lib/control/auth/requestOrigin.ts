/**
 * Where a request says it came from, and whether that is Sluice's own origin: the CSRF defence
 * of the cookie-authenticated API, and the `Secure` decision of the session cookie.
 *
 * - The request's own origin is its protocol plus its Host header (the URL's host without one).
 *   When the connection is a trusted proxy's (SLUICE_TRUST_PROXY: any, with a hop count; one of
 *   the listed addresses, with a list; lib/http/clientIp.ts) the first
 *   `X-Forwarded-Proto` and `X-Forwarded-Host` values win, as the outermost proxy saw the request.
 *   A client that reaches Sluice directly never picks them.
 * - The claimed origin is the `Origin` header, or without one the origin of `Referer`.
 *   `Origin: null`, a malformed value, or a different scheme, host or port is "cross".
 * - `originCheck` answers "same", "cross" or "missing" (neither header); callers decide what
 *   "missing" means (refused for cookie-authenticated writes, allowed for a login by a script).
 */

import type { TrustProxy } from "../../config/trustProxy";
import { requestClient } from "../../http/clientIp";

export type OriginVerdict = "same" | "cross" | "missing";

const firstValue = (raw: string | null): string | null => raw?.split(",")[0]?.trim() || null;

function forwarded(headers: Headers, name: string, trust: TrustProxy): string | null {
  return requestClient(headers, trust).viaTrustedProxy ? firstValue(headers.get(name)) : null;
}

export function isHttpsRequest(request: Request, trust: TrustProxy): boolean {
  const proto = forwarded(request.headers, "x-forwarded-proto", trust);
  if (proto) return proto.toLowerCase() === "https";
  return new URL(request.url).protocol === "https:";
}

/**
 * As isHttpsRequest, from headers alone (a server component sees no request URL): HTTPS only as
 * a trusted proxy's X-Forwarded-Proto says, since Sluice's own server speaks plain HTTP.
 */
export function isHttpsByHeaders(headers: Headers, trust: TrustProxy): boolean {
  return forwarded(headers, "x-forwarded-proto", trust)?.toLowerCase() === "https";
}

/** The request's own origin, e.g. `https://sluice.example.com`; null when it cannot be formed. */
export function requestOrigin(request: Request, trust: TrustProxy): string | null {
  const host =
    forwarded(request.headers, "x-forwarded-host", trust) ?? request.headers.get("host") ?? new URL(request.url).host;
  const scheme = isHttpsRequest(request, trust) ? "https:" : "http:";
  return originOf(`${scheme}//${host}`);
}

function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

export function originCheck(request: Request, trust: TrustProxy): OriginVerdict {
  const origin = request.headers.get("origin");
  const referer = request.headers.get("referer");
  const claimed = origin !== null ? origin : referer;
  if (claimed === null) return "missing";
  const own = requestOrigin(request, trust);
  const theirs = originOf(claimed.trim());
  return own !== null && theirs === own ? "same" : "cross";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}
