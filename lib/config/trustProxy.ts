/**
 * SLUICE_TRUST_PROXY: whose `X-Forwarded-For` (and `X-Forwarded-Proto`, `-Host`) Sluice believes.
 *
 * - A number of hops (`0` .. `32`, default `0`): that many proxies nearest to Sluice are trusted,
 *   whoever they are. Only safe when nothing else can reach Sluice's port (bound to loopback, or a
 *   private network only the proxies are on).
 * - A comma-separated list of the proxies' addresses and CIDR blocks (`127.0.0.1,10.0.0.0/8,::1`):
 *   only a connection from one of them is a proxy; a client that reaches the port directly is
 *   taken at its own address, whatever it sends.
 * The walk itself is lib/http/clientIp.ts. A value that is neither is a start-up
 * error naming the variable and the bad entry.
 */
import { inRanges, parseAddressRanges, type AddressRange } from "./addressRanges";

export type TrustProxy = { readonly hops: number } | { readonly proxies: readonly AddressRange[] };

const NAME = "SLUICE_TRUST_PROXY";
const MAX_HOPS = 32;

export const TRUST_NO_PROXY: TrustProxy = { hops: 0 };

export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const text = raw?.trim() ?? "";
  if (text === "") return TRUST_NO_PROXY;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(`${NAME} must be a hop count from 0 to ${MAX_HOPS}, got "${raw}"`);
    return { hops };
  }
  const proxies = parseAddressRanges(text, NAME);
  if (proxies.length === 0) throw new Error(`${NAME}: "${raw}" lists no address`);
  return { proxies };
}

/**
 * Whether the address `hop` steps away from Sluice (0: the connection's own) is a trusted proxy,
 * i.e. may say who sent it the request.
 */
export function isTrustedProxy(trust: TrustProxy, address: string, hop: number): boolean {
  return "hops" in trust ? hop < trust.hops : inRanges(address, trust.proxies);
}

/** Whether any proxy is trusted at all (forwarded headers may count). */
export function trustsAnyProxy(trust: TrustProxy): boolean {
  return "hops" in trust ? trust.hops > 0 : true;
}
