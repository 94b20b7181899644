/**
 * The client's IP address.
 *
 * The connection's address reaches route handlers through `x-sluice-peer`, which only Sluice's
 * own server (scripts/server.mjs) sets, together with `x-sluice-peer-auth` carrying a secret of
 * this process (SLUICE_PEER_SECRET, made at start), so a client cannot forge it. With
 * SLUICE_TRUST_PROXY=n, the n proxies nearest to us are trusted to have appended to
 * `X-Forwarded-For`: the client is the address n hops back (the right-most entries are the
 * nearest). A client can only prepend entries, never choose which one is taken.
 * Without the server's header (e.g. `next dev`), Next's own `x-forwarded-for` fallback is used.
 * The data plane (lib/dataplane) sees the socket itself and calls `clientIpOf` with its address.
 * Server only: it holds the peer secret's check.
 */
import "server-only";

export const PEER_HEADER = "x-sluice-peer";
export const PEER_AUTH_HEADER = "x-sluice-peer-auth";

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

export function clientIp(headers: Headers, trustProxyHops: number, secret = process.env.SLUICE_PEER_SECRET): string {
  return clientIpOf(headers.get("x-forwarded-for"), peerAddress(headers, secret), trustProxyHops);
}

/**
 * The client of a connection from `peer` carrying `forwardedFor` (X-Forwarded-For, all values
 * joined by commas): `peer` itself, or the address `trustProxyHops` hops back in the chain.
 * `peer` null: the socket is unknown (Next without Sluice's server), best effort.
 */
export function clientIpOf(
  forwardedFor: string | null | undefined,
  peer: string | null,
  trustProxyHops: number,
): string {
  if (peer !== null && trustProxyHops === 0) return normalizeIp(peer);
  const forwarded = (forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (peer === null) {
    // Not behind Sluice's server: Next put the socket address in X-Forwarded-For only if the
    // client sent none, so this is best effort.
    return normalizeIp(forwarded.at(-1) ?? "unknown");
  }
  const chain = [...forwarded, peer];
  return normalizeIp(chain[Math.max(0, chain.length - 1 - trustProxyHops)]!);
}
