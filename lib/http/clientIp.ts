/**
 * The client's IP address, and whether the request came through a trusted proxy.
 *
 * SLUICE_TRUST_PROXY (lib/config/trustProxy.ts) says which proxies may speak for the client. The
 * chain is X-Forwarded-For's entries (all values joined by commas) followed by the connection's own
 * address, and it is read right to left, nearest first (nginx's `real_ip_recursive`, Express's
 * `trust proxy`): while the address in hand is a trusted proxy, the entry to its left is who sent it
 * the request; the first address that is not a trusted proxy is the client. With a hop count the
 * first n addresses are trusted whoever they are; with a list of addresses only those. So a client
 * can only prepend entries, never choose which one is taken, and a client that reaches Sluice's
 * port directly (not from a listed proxy) is taken at its own address.
 * An entry that is not an IP address (`unknown`, `unix:`, an obfuscated node name, or anything a
 * client could vary per request to get a fresh counter) stops the walk: the client is the trusted
 * proxy that passed it on.
 *
 * Next's route handlers cannot see the socket: its address reaches them in `x-sluice-peer`, which
 * only Sluice's own server (scripts/server.mjs) sets, together with `x-sluice-peer-auth` carrying a
 * secret of this process (SLUICE_PEER_SECRET, made at start), so a client cannot forge it. A request
 * without that proof while the secret is set (a local process that connected to the control plane's
 * socket itself), or in production without Sluice's server, is from an "unknown" client and no
 * forwarded header of it is believed. Only outside production without Sluice's server (route tests,
 * a bare `next dev`) is X-Forwarded-For's last entry taken, as best effort.
 * The data plane (lib/dataplane) sees the socket itself and calls `clientOriginOf` with its address.
 * Server only: it holds the peer secret's check.
 */
import "server-only";
import { isIP } from "node:net";
import { isTrustedProxy, trustsAnyProxy, type TrustProxy } from "../config/trustProxy";

export const PEER_HEADER = "x-sluice-peer";
export const PEER_AUTH_HEADER = "x-sluice-peer-auth";

/** Who sent a request, as far as Sluice believes it. */
export interface ClientOrigin {
  /** The client's address (normalized, see normalizeIp), or "unknown". */
  ip: string;
  /** The connection is a trusted proxy's: its X-Forwarded-Proto and X-Forwarded-Host count. */
  viaTrustedProxy: boolean;
}

const UNKNOWN: ClientOrigin = { ip: "unknown", viaTrustedProxy: false };

function peerAddress(headers: Headers, secret: string | undefined): string | null {
  const peer = headers.get(PEER_HEADER);
  if (!peer || !secret || headers.get(PEER_AUTH_HEADER) !== secret) return null;
  return peer;
}

const BRACKETED = /^\[([^\]]*)\](?::\d+)?$/;
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/;

/**
 * One client, one address: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as plain IPv4, and the port some
 * proxies append to an X-Forwarded-For entry (`1.2.3.4:51234`, `[2001:db8::1]:443`; Azure
 * Application Gateway, IIS ARR) or the brackets around an IPv6 one dropped. With the port kept,
 * every connection of one client was a new client to an `ip` rule and to the access lists.
 */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim();
  const address = BRACKETED.exec(trimmed)?.[1] ?? IPV4_WITH_PORT.exec(trimmed)?.[1] ?? trimmed;
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}

function forwardedEntries(forwardedFor: string | null | undefined): string[] {
  return (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The client of a connection from `peer` (the socket's address) carrying `forwardedFor`
 * (X-Forwarded-For, all values joined by commas), walked right to left as the module comment says.
 */
export function clientOriginOf(forwardedFor: string | null | undefined, peer: string, trust: TrustProxy): ClientOrigin {
  let client = normalizeIp(peer);
  const viaTrustedProxy = isTrustedProxy(trust, client, 0);
  if (!viaTrustedProxy) return { ip: client, viaTrustedProxy };
  const entries = forwardedEntries(forwardedFor);
  for (let hop = 0, i = entries.length - 1; i >= 0 && isTrustedProxy(trust, client, hop); hop++, i--) {
    const sender = normalizeIp(entries[i]!);
    if (isIP(sender) === 0) break;
    client = sender;
  }
  return { ip: client, viaTrustedProxy };
}

/** Who sent a request that reached a Next route handler (see the module comment). */
export function requestClient(
  headers: Headers,
  trust: TrustProxy,
  secret = process.env.SLUICE_PEER_SECRET,
): ClientOrigin {
  const peer = peerAddress(headers, secret);
  if (peer !== null) return clientOriginOf(headers.get("x-forwarded-for"), peer, trust);
  if (secret || process.env.NODE_ENV === "production") return UNKNOWN;
  // Not behind Sluice's server, not in production: Next put the socket address in X-Forwarded-For
  // only if the client sent none, so this is best effort.
  const last = forwardedEntries(headers.get("x-forwarded-for")).at(-1);
  return { ip: normalizeIp(last ?? "unknown"), viaTrustedProxy: trustsAnyProxy(trust) };
}

/** The client IP of a request to a Next route handler. */
export function clientIp(headers: Headers, trust: TrustProxy, secret = process.env.SLUICE_PEER_SECRET): string {
  return requestClient(headers, trust, secret).ip;
}
