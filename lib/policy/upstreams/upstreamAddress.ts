/**
 * Which addresses a gateway upstream may be at (CONTRACT.md, admin API, upstream row): any but a
 * link-local one, 169.254.0.0/16 and fe80::/10, IPv4-mapped and IPv4-compatible forms included
 * (`::ffff:169.254.169.254`, `::169.254.169.254`), and AWS's IPv6 metadata address
 * fd00:ec2::254. Cloud metadata services answer there (169.254.169.254 holds an instance's
 * credentials): an upstream at one would make every key of the tenant a reader of it. Private and
 * loopback addresses stay allowed: an upstream is normally on the operator's own network.
 *
 * Judged twice: when written (upstreamSchema, an IP literal in the URL: 422) and when connecting
 * (lib/dataplane/gateway/gatewayAgent.ts: the addresses a name resolves to; upstreamTarget.ts: a
 * literal stored before this check: 502). Browser-safe.
 */
import ipaddr from "ipaddr.js";
import { inRanges, isLinkLocal, socketAddress, type AddressRange } from "../../config/addressRanges";

const METADATA: AddressRange[] = [ipaddr.parseCIDR("fd00:ec2::254/128")];

/** Completes "url ..." (a 422) and "The upstream's address ..." (a 502). */
export const UPSTREAM_ADDRESS_REFUSED =
  "must not be link-local (169.254.0.0/16, fe80::/10), where cloud metadata services answer";

/** Whether a socket may connect to `address` (an IP literal) for an upstream; not an address: true. */
export function upstreamAddressAllowed(address: string): boolean {
  const ip = socketAddress(address);
  return ip === null || !(isLinkLocal(ip) || inRanges(ip, METADATA));
}
