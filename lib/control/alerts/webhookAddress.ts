/**
 * Which addresses an alert webhook may reach (SSRF guard). Alert URLs are typed by operators, but
 * Sluice runs next to databases, Redis and cloud metadata services: a webhook must not become a way
 * to make Sluice POST into its own network.
 *
 * Contract
 * - Only `http:` and `https:` URLs (the schema, lib/control/alerts/alertSchema.ts, already refuses others).
 * - An address is allowed when it is public unicast (ipaddr.js range `unicast`; IPv4-mapped IPv6 is
 *   judged as its IPv4), or when it falls in one of the operator's allowed ranges
 *   (SLUICE_ALERT_ALLOWED_ADDRESSES, CIDRs separated by commas, e.g. `10.1.0.0/16,127.0.0.1/32`).
 *   Everything else is refused: loopback, private, link-local (169.254.169.254 too), unique-local,
 *   multicast, unspecified, reserved.
 * - The check happens where the connection is made: `guardedLookup` resolves the name and hands
 *   only allowed addresses to the socket, so a name that resolves to a public address when checked
 *   and a private one when connecting (DNS rebinding) is still refused. IP literals in the URL never
 *   reach a lookup: `literalAddressProblem` checks them before sending.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import type { AddressRange } from "../../config/addressRanges";

/** IPv4-mapped IPv6 as its IPv4 (ipaddr.process); null for anything that is not an address. */
function normalized(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return ipaddr.isValid(address) ? ipaddr.process(address) : null;
}

export function addressAllowed(address: string, allowed: AddressRange[]): boolean {
  const ip = normalized(address.replace(/^\[|\]$/g, ""));
  if (!ip) return false;
  if (allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return true;
  return ip.range() === "unicast";
}

/** Why the URL's host, when it is an IP literal, may not be reached; null for names and allowed addresses. */
export function literalAddressProblem(url: URL, allowed: AddressRange[]): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 0) return null;
  return addressAllowed(host, allowed)
    ? null
    : `address ${host} is not allowed for webhooks (private, loopback or reserved; see SLUICE_ALERT_ALLOWED_ADDRESSES)`;
}

/** A `lookup` for the socket that resolves the name and keeps only allowed addresses. */
export function guardedLookup(allowed: AddressRange[], resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const ok = (addresses as LookupAddress[]).filter((a) => addressAllowed(a.address, allowed));
      if (ok.length === 0) {
        const refused = Object.assign(
          new Error(
            `${hostname} resolves only to addresses not allowed for webhooks (private, loopback or reserved; see SLUICE_ALERT_ALLOWED_ADDRESSES)`,
          ),
          { code: "EADDRNOTALLOWED" },
        );
        return callback(refused, "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
