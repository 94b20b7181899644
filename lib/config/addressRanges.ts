/**
 * What an IP address is, for every guard on an address Sluice connects to or believes: alert
 * webhooks (lib/control/alerts/webhookAddress.ts: public unicast only), gateway upstreams
 * (lib/policy/upstreams/upstreamAddress.ts: never link-local) and trusted proxies
 * (lib/config/trustProxy.ts). One copy of the parsing and the ranges, so a form one guard sees
 * through the others do too. Also the parser of the address lists read from the environment:
 * SLUICE_ALERT_ALLOWED_ADDRESSES and the list form of SLUICE_TRUST_PROXY, here, below everything,
 * so the configuration can check them at start-up.
 *
 * Contract
 * - `socketAddress` reads an IP literal (brackets and a zone id allowed) as the address a socket
 *   reaches: an IPv6 address that carries an IPv4 one, IPv4-mapped (`::ffff:a.b.c.d`,
 *   ::ffff:0:0/96) or IPv4-compatible (`::a.b.c.d`, ::/96 other than `::` and `::1`, deprecated
 *   by RFC 4291 but still routed to the IPv4 by some stacks), is that IPv4 address. null for
 *   anything that is not an address.
 * - `parseIPv6` reads IPv6 text exactly. ipaddr.js reads `::1.2.3.4` (IPv4-compatible) as
 *   `::ffff:1.2.3.4` (IPv4-mapped); here a dotted tail becomes its two hextets before parsing.
 * - An entry of an address list is an IPv4 address (dotted quad), an IPv6 address, or either with
 *   `/bits`; a bare address is its own /32 or /128. Anything else throws, naming the variable and
 *   the entry.
 * - Browser-safe (ipaddr.js only, no node:net): the dashboard's upstream form runs the same checks.
 */
import ipaddr from "ipaddr.js";

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type AddressRange = [IpAddress, number];

const DOTTED_TAIL = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** IPv6 text (no brackets, no zone id) parsed exactly (see above); null when it is not IPv6. */
export function parseIPv6(text: string): ipaddr.IPv6 | null {
  if (text.includes("%")) return null;
  let hex = text;
  const tail = DOTTED_TAIL.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(2).map(Number) as [number, number, number, number];
    if (a > 255 || b > 255 || c > 255 || d > 255) return null;
    hex = `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  return ipaddr.IPv6.isValid(hex) ? ipaddr.IPv6.parse(hex) : null;
}

/** ::/96 but `::` and `::1` (RFC 4291 2.5.5.1). */
function isIPv4Compatible(ip: ipaddr.IPv6): boolean {
  const p = ip.parts;
  return p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7]! > 1);
}

/** The IPv4 address in the last 32 bits. */
const embeddedIPv4 = (ip: ipaddr.IPv6): ipaddr.IPv4 => {
  const [high, low] = ip.parts.slice(-2) as [number, number];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
};

/** The address a socket reaches for this literal (see above), or null when it is not one. */
export function socketAddress(text: string): IpAddress | null {
  const bare = text
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  if (!bare.includes(":")) return ipaddr.IPv4.isValid(bare) ? ipaddr.IPv4.parse(bare) : null;
  const ip = parseIPv6(bare);
  if (!ip) return null;
  return ip.isIPv4MappedAddress() || isIPv4Compatible(ip) ? embeddedIPv4(ip) : ip;
}

const SITE_LOCAL: AddressRange = [ipaddr.IPv6.parse("fec0::"), 10];
const LINK_LOCAL: AddressRange[] = [ipaddr.parseCIDR("169.254.0.0/16"), ipaddr.parseCIDR("fe80::/10")];

/**
 * Whether `address` is in one of `ranges`: an address as socketAddress reads it (a string, as
 * node:net reports one: IPv4-mapped and -compatible IPv6 judged as its IPv4), or one parsed already.
 * Anything that is not an address is in none.
 */
export function inRanges(address: string | IpAddress, ranges: readonly AddressRange[]): boolean {
  if (ranges.length === 0) return false;
  const ip = typeof address === "string" ? socketAddress(address) : address;
  return ip !== null && ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}

/**
 * Public unicast: not loopback, private, unique-local, site-local (fec0::/10, RFC 3879), link-local,
 * multicast, unspecified, reserved or documentation (ipaddr.js's range `unicast`; site-local is
 * checked here too, whatever the library's table says).
 */
export function isPublicUnicast(ip: IpAddress): boolean {
  return ip.range() === "unicast" && !inRanges(ip, [SITE_LOCAL]);
}

/** 169.254.0.0/16 or fe80::/10 (take the address from socketAddress, so mapped forms are included). */
export function isLinkLocal(ip: IpAddress): boolean {
  return inRanges(ip, LINK_LOCAL);
}

/** 4 for a dotted quad, 6 for IPv6 text, 0 for anything else (strict: no `127.1`, octal or hex parts). */
function familyOf(text: string): 0 | 4 | 6 {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return 4;
  return text.includes(":") && parseIPv6(text) !== null ? 6 : 0;
}

/** Parses a comma-separated list of addresses and CIDR ranges (empty entries skipped); throws with the bad entry. */
export function parseAddressRanges(text: string, variable: string): AddressRange[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part): AddressRange => {
      const [address = "", bits] = part.split("/", 2);
      const family = familyOf(address);
      const maxBits = family === 6 ? 128 : 32;
      if (family === 0 || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits)))
        throw new Error(`${variable}: "${part}" is not an address or CIDR range`);
      return [
        family === 4 ? ipaddr.IPv4.parse(address) : parseIPv6(address)!,
        bits === undefined ? maxBits : Number(bits),
      ];
    });
}

/** Parses SLUICE_ALERT_ALLOWED_ADDRESSES; throws with the bad entry. */
export function parseAllowedRanges(text: string): AddressRange[] {
  return parseAddressRanges(text, "SLUICE_ALERT_ALLOWED_ADDRESSES");
}
