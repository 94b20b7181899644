/**
 * Which headers the gateway passes on, in each direction (pure; lib/dataplane/gateway/forwardToUpstream.ts
 * sends them).
 *
 * To the upstream: every header the client sent, except
 * - hop-by-hop headers (RFC 9110 7.6.1): `Connection` and every header it names, `Keep-Alive`,
 *   `Proxy-*`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade` (the HTTP client frames the body
 *   itself), plus `Host` (the upstream's own is sent; the client's goes in `X-Forwarded-Host`) and
 *   `Expect` (this server already answered any `100-continue`);
 * - the credential Sluice consumed: `Authorization` when it carried the `Bearer` key, else
 *   `x-api-key` (the same precedence as lib/dataplane/admission/credentials.ts); the other is the client's
 *   own business with the upstream and passes. On a tenant's host admission says which it was
 *   (`credential`): none for a JWT caller, whose `Authorization` reaches the upstream unchanged, or
 *   an anonymous one;
 * - every `X-Sluice-*` header: the server's internal peer headers (one carries a per-process
 *   secret) and anything a client sent to pass itself off as another tenant or key;
 * - the `X-Forwarded-*` the request came with;
 * and with `X-Forwarded-For`, `X-Forwarded-Proto`, `X-Forwarded-Host`, `X-Sluice-Tenant` and
 * `X-Sluice-Key` (the key id, for a key caller only) added. `X-Forwarded-For` is the client's address as Sluice settled it
 * (lib/http/clientIp.ts) and nothing else: entries Sluice did not believe (a client's
 * own) never reach the upstream, and the right-most (only) entry is the client for an upstream that
 * trusts one hop. `X-Forwarded-Proto` and `-Host` are a trusted proxy's first values when the
 * connection is one (`http`/`https` only for the protocol), else the connection's protocol and the
 * request's `Host`: a client that reaches Sluice directly never picks them.
 *
 * To the client: the upstream's headers as they are, without hop-by-hop headers (this server
 * frames its own answer), with the rate-limit headers of the decision set over any of the same name.
 */
import type { IncomingHttpHeaders } from "node:http";

export type HeaderMap = Record<string, string | string[]>;

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
]);
const NOT_FORWARDED = new Set(["host", "expect"]);
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export interface ForwardContext {
  clientIp: string;
  /** The connection is a trusted proxy's: its X-Forwarded-Proto and X-Forwarded-Host are passed on. */
  viaTrustedProxy: boolean;
  /** `http` or `https`: how the connection reached Sluice. */
  proto: string;
  tenantId: string;
  /** "" for a caller without a key (a JWT or anonymous caller on a tenant's host). */
  keyId: string;
  /** The credential header consumed, null for none; absent: `consumedCredential(incoming)`. */
  credential?: "authorization" | "x-api-key" | null;
}

/** The credential header Sluice read the API key from. */
export function consumedCredential(headers: IncomingHttpHeaders): "authorization" | "x-api-key" {
  const auth = headers.authorization;
  if (auth && BEARER.test(auth)) return "authorization";
  return headers["x-api-key"]?.toString().trim() ? "x-api-key" : "authorization";
}

/** No header listed: what most requests have (shared, never written). */
const NONE_LISTED: ReadonlySet<string> = new Set();
/**
 * The `Connection` values nearly every exchange carries, parsed once (shared, never written): a Set
 * per response for `keep-alive` was ~2% of the gateway's CPU.
 */
const COMMON_LISTS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  ["keep-alive", "close", "Keep-Alive", "Close"].map((value) => [value, new Set([value.toLowerCase()])]),
);

/** Header names listed in `Connection` (lower-case): hop-by-hop by declaration. */
function connectionListed(value: string | string[] | undefined): ReadonlySet<string> {
  if (value === undefined) return NONE_LISTED;
  const common = typeof value === "string" ? COMMON_LISTS.get(value) : undefined;
  if (common) return common;
  const listed = new Set<string>();
  for (const part of [value ?? []].flat().join(",").split(",")) {
    const name = part.trim().toLowerCase();
    if (name) listed.add(name);
  }
  return listed;
}

function isHopByHop(name: string, listed: ReadonlySet<string>): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith("proxy-") || listed.has(name);
}

const firstValue = (value: string | string[] | undefined): string | undefined =>
  [value ?? []].flat().join(",").split(",")[0]?.trim() || undefined;

/** A trusted proxy's view of the request: the outermost proxy's (first) values. */
function proxyForwarded(incoming: IncomingHttpHeaders): { proto?: string; host?: string } {
  const proto = firstValue(incoming["x-forwarded-proto"])?.toLowerCase();
  const host = firstValue(incoming["x-forwarded-host"]);
  return {
    ...(proto === "http" || proto === "https" ? { proto } : {}),
    ...(host ? { host } : {}),
  };
}

export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, ctx: ForwardContext): HeaderMap {
  const listed = connectionListed(incoming.connection);
  const consumed = ctx.credential === undefined ? consumedCredential(incoming) : ctx.credential;
  const out: HeaderMap = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || isHopByHop(name, listed) || NOT_FORWARDED.has(name) || name === consumed) continue;
    if (
      name.startsWith("x-sluice-") ||
      name === "x-forwarded-for" ||
      name === "x-forwarded-proto" ||
      name === "x-forwarded-host"
    )
      continue;
    out[name] = value;
  }
  out["x-forwarded-for"] = ctx.clientIp;
  const proxied = ctx.viaTrustedProxy ? proxyForwarded(incoming) : undefined;
  out["x-forwarded-proto"] = proxied?.proto ?? ctx.proto;
  const host = proxied?.host ?? incoming.host;
  if (host) out["x-forwarded-host"] = host;
  out["x-sluice-tenant"] = ctx.tenantId;
  if (ctx.keyId !== "") out["x-sluice-key"] = ctx.keyId;
  return out;
}

/**
 * `headers` without the hop-by-hop ones, names in lower case: what any proxy passes on, in either
 * direction (the gateway's answers here; the control plane's forwarding, lib/runtime/controlPlaneProxy.ts).
 */
export function endToEndHeaders(headers: Record<string, string | string[] | undefined>): HeaderMap {
  const listed = connectionListed(headers.connection);
  const out: HeaderMap = {};
  for (const name in headers) {
    const value = headers[name];
    const lower = name.toLowerCase();
    if (value === undefined || isHopByHop(lower, listed)) continue;
    out[lower] = value;
  }
  return out;
}

export function clientResponseHeaders(
  upstream: Record<string, string | string[] | undefined>,
  rateLimitHeaders: Record<string, string>,
): HeaderMap {
  const out = endToEndHeaders(upstream);
  // Set over any of the same name (the upstream's then keeps its place, with Sluice's value).
  for (const name in rateLimitHeaders) out[name.toLowerCase()] = rateLimitHeaders[name]!;
  return out;
}
