/**
 * Where a forwarded request goes: the upstream URL parsed (origin, path prefix, and whether its
 * host, when an IP literal, may be connected to) and the request target under it.
 *
 * - `upstreamPath`: `GET /api/v1/orders/42?x=1` goes to `GET <upstream url>/orders/42?x=1`.
 * - `parsedUpstream` throws on a URL that does not parse (a stored URL always does: upstreamSchema);
 *   the caller makes that a 502. An IP literal is never looked up, so it is judged here
 *   (`addressAllowed`: a URL stored before upstreamSchema refused link-local ones); a name is
 *   judged when it is resolved (gatewayAgent.ts).
 * - Parsed URLs are cached (a tenant's URL changes rarely), bounded: cleared when full.
 */
import { upstreamAddressAllowed } from "../../policy/upstreams/upstreamAddress";

/**
 * The upstream's request target: `path` (what follows /api/v1, query included) under the upstream
 * URL's path prefix. `/api/v1` itself (`path` "" or "?x=1") is the upstream URL's own path, as the
 * contract maps `/api/v1/orders/42` to `<upstream>/orders/42`: with upstream `http://u/v2`, `/v2`,
 * not `/v2/` (and `/` when the URL has no path).
 */
export function upstreamPath(prefix: string, path: string): string {
  if (path === "" || path.startsWith("?")) return (prefix || "/") + path;
  return prefix + (path.startsWith("/") ? path : `/${path}`);
}

const pathPrefixOf = (upstreamUrl: URL): string => upstreamUrl.pathname.replace(/\/+$/, "");

/**
 * An upstream URL parsed: origin, path prefix, and whether its host, when an IP literal, may be
 * connected to (a URL stored before upstreamSchema refused link-local ones).
 */
export interface ParsedUpstream {
  origin: string;
  prefix: string;
  addressAllowed: boolean;
}

/** Upstream URLs parsed once (a tenant's URL changes rarely). Bounded: cleared when full. */
const parsedUpstreams = new Map<string, ParsedUpstream>();
const MAX_PARSED_UPSTREAMS = 1_000;

export function parsedUpstream(url: string): ParsedUpstream {
  let parsed = parsedUpstreams.get(url);
  if (!parsed) {
    const target = new URL(url);
    parsed = {
      origin: target.origin,
      prefix: pathPrefixOf(target),
      addressAllowed: upstreamAddressAllowed(target.hostname),
    };
    if (parsedUpstreams.size >= MAX_PARSED_UPSTREAMS) parsedUpstreams.clear();
    parsedUpstreams.set(url, parsed);
  }
  return parsed;
}
