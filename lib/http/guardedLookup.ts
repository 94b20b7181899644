/**
 * A socket `lookup` that connects only to addresses a guard accepts (alert webhooks:
 * lib/control/alerts/webhookAddress.ts; gateway upstreams: lib/dataplane/gateway/gatewayAgent.ts).
 * Given to an undici Agent as `connect: { lookup }`, it judges the addresses the socket is about to
 * connect to, after resolution: a name that resolves to an accepted address when a form is saved
 * and to a refused one when connecting (DNS rebinding) is still refused.
 *
 * Contract
 * - Resolves the name (all addresses) and hands the socket only the accepted ones, in order.
 * - None accepted: fails with an Error whose `code` is ADDRESS_NOT_ALLOWED and whose message is
 *   `refusal(hostname)`. A resolver error passes through unchanged.
 * - IP literals never reach a lookup (node:net connects to them directly): callers check those
 *   themselves before connecting.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";

export const ADDRESS_NOT_ALLOWED = "EADDRNOTALLOWED";

/** Whether `error` (or an error it wraps, as undici's `cause`) is a refusal of this guard. */
export function isAddressNotAllowed(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === ADDRESS_NOT_ALLOWED) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function guardedLookup(
  accept: (address: string) => boolean,
  refusal: (hostname: string) => string,
  resolve: typeof dnsLookup = dnsLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const ok = (addresses as LookupAddress[]).filter((a) => accept(a.address));
      if (ok.length === 0) {
        return callback(Object.assign(new Error(refusal(hostname)), { code: ADDRESS_NOT_ALLOWED }), "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
