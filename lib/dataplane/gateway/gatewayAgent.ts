/**
 * The gateway's HTTP client: one undici Agent for the process, which keeps one keep-alive
 * connection Pool per upstream origin (lib/dataplane/gateway/forwardToUpstream.ts forwards through it).
 *
 * - Never connects to a link-local address (lib/policy/upstreams/upstreamAddress.ts: cloud metadata
 *   services answer there): the agent's `lookup` hands the socket only the allowed addresses a name
 *   resolves to (lib/http/guardedLookup.ts), so what is judged is what is connected to; a name with
 *   none fails its connect with ADDRESS_NOT_ALLOWED (a 502 saying so: upstreamFailure.ts).
 * - Idle connections live KEEP_ALIVE_MS unless the upstream announces a shorter time; a TCP/TLS
 *   connect over CONNECT_TIMEOUT_MS is an unreachable upstream (502).
 * - One for the process (kept on globalThis); `closeGatewayAgent` closes it (tests, shutdown) and
 *   the next call makes a new one.
 */
import { Agent } from "undici";
import { guardedLookup } from "../../http/guardedLookup";
import { upstreamAddressAllowed } from "../../policy/upstreams/upstreamAddress";

/** Idle keep-alive connections live this long unless the upstream announces a shorter time. */
export const KEEP_ALIVE_MS = 10_000;
/** A TCP/TLS connect that takes longer than this is an unreachable upstream (502). */
export const CONNECT_TIMEOUT_MS = 10_000;

const upstreamLookup = guardedLookup(upstreamAddressAllowed, (host) => `${host} resolves only to link-local addresses`);

const globalForGateway = globalThis as unknown as { sluiceGatewayAgent?: Agent };

/** The process's HTTP client: undici's Agent keeps one connection Pool per upstream origin. */
export function gatewayAgent(): Agent {
  globalForGateway.sluiceGatewayAgent ??= new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: 60_000,
    connect: { timeout: CONNECT_TIMEOUT_MS, lookup: upstreamLookup },
  });
  return globalForGateway.sluiceGatewayAgent;
}

/** Closes the pooled connections (tests, shutdown). */
export async function closeGatewayAgent(): Promise<void> {
  const agent = globalForGateway.sluiceGatewayAgent;
  globalForGateway.sluiceGatewayAgent = undefined;
  await agent?.close();
}
