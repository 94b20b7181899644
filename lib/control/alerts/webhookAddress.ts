/**
 * Which addresses an alert webhook may reach (SSRF guard). Alert URLs are typed by operators, but
 * Sluice runs next to databases, Redis and cloud metadata services: a webhook must not become a way
 * to make Sluice POST into its own network.
 *
 * Contract
 * - Only `http:` and `https:` URLs (the schema, lib/control/alerts/alertSchema.ts, already refuses others).
 * - An address is allowed when it is public unicast (lib/config/addressRanges.ts: an IPv6 address
 *   carrying an IPv4 one, IPv4-mapped `::ffff:a.b.c.d` or IPv4-compatible `::a.b.c.d`, is judged
 *   as that IPv4), or when it falls in one of the operator's allowed ranges
 *   (SLUICE_ALERT_ALLOWED_ADDRESSES, CIDRs separated by commas, e.g. `10.1.0.0/16,127.0.0.1/32`).
 *   Everything else is refused: loopback, private, link-local (169.254.169.254 too), unique-local,
 *   site-local (fec0::/10), multicast, unspecified, reserved.
 * - The check happens where the connection is made: `guardedLookup` (lib/http/guardedLookup.ts)
 *   resolves the name and hands only allowed addresses to the socket, so a name that resolves to a
 *   public address when checked and a private one when connecting (DNS rebinding) is still refused.
 *   IP literals in the URL never reach a lookup: `literalAddressProblem` checks them before sending.
 */
import type { lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { inRanges, isPublicUnicast, socketAddress, type AddressRange } from "../../config/addressRanges";
import { guardedLookup as lookupAccepting } from "../../http/guardedLookup";

export function addressAllowed(address: string, allowed: AddressRange[]): boolean {
  const ip = socketAddress(address);
  if (!ip) return false;
  return inRanges(ip, allowed) || isPublicUnicast(ip);
}

const NOT_ALLOWED = "not allowed for webhooks (private, loopback or reserved; see SLUICE_ALERT_ALLOWED_ADDRESSES)";

/** Why the URL's host, when it is an IP literal, may not be reached; null for names and allowed addresses. */
export function literalAddressProblem(url: URL, allowed: AddressRange[]): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (socketAddress(host) === null) return null;
  return addressAllowed(host, allowed) ? null : `address ${host} is ${NOT_ALLOWED}`;
}

/** A `lookup` for the socket that resolves the name and keeps only allowed addresses. */
export function guardedLookup(allowed: AddressRange[], resolve?: typeof dnsLookup): LookupFunction {
  return lookupAccepting(
    (address) => addressAllowed(address, allowed),
    (hostname) => `${hostname} resolves only to addresses ${NOT_ALLOWED}`,
    resolve,
  );
}
