/**
 * The one place a client address becomes the subject an `ip` rule counts (lib/limiter/keys.ts
 * applies it to every `ip`-scoped counter: API rules, the anonymous limit, the login limit, the
 * admin quota probe and the simulator all go through there).
 *
 * - IPv4 counts per address. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a dual-stack
 *   socket reports for an IPv4 peer) is that IPv4 address.
 * - IPv6 counts per /64: one host is normally given a whole /64 (SLAAC, privacy addresses), so
 *   per-address counting would let it rotate through 2^64 addresses and escape every limit.
 *   The subject is the network written canonically, e.g. `2001:db8:0:1::/64`; a zone id is dropped.
 * - Anything else (e.g. `unknown` when no address is known) is kept as it is.
 * The result is stable: applying it to its own output changes nothing.
 */
import ipaddr from "ipaddr.js";

export const IPV6_PREFIX_BITS = 64;

/**
 * Addresses already mapped -> their subject. A client sends many requests from one address, and
 * parsing it (ipaddr.js) cost about 7 % of the limiter's Node CPU in a decision with an `ip` rule.
 * Bounded: emptied when it reaches ADDRESS_CACHE_MAX entries; longer inputs (no address is) are
 * never kept.
 */
export const ADDRESS_CACHE_MAX = 10_000;
const ADDRESS_TEXT_MAX = 64;
const mapped = new Map<string, string>();

export function limitingAddress(address: string): string {
  const known = mapped.get(address);
  if (known !== undefined) return known;
  const subject = mapAddress(address);
  if (address.length <= ADDRESS_TEXT_MAX) {
    if (mapped.size >= ADDRESS_CACHE_MAX) mapped.clear();
    mapped.set(address, subject);
  }
  return subject;
}

function mapAddress(address: string): string {
  const trimmed = address.trim();
  if (!ipaddr.isValid(trimmed)) return trimmed;
  const parsed = ipaddr.process(trimmed);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const hextets = (parsed as ipaddr.IPv6).parts.slice(0, IPV6_PREFIX_BITS / 16);
  return `${hextets.map((h) => h.toString(16)).join(":")}::/${IPV6_PREFIX_BITS}`;
}
