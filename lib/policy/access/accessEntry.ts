/**
 * One access-list entry (PUT /api/admin/tenants/{tenantId}/access), parsed: an IPv4 or IPv6
 * address, a CIDR block, or `key:<keyId>`. Pure and browser-safe (the dashboard form validates
 * with the same schema: lib/policy/access/accessListSchema.ts).
 *
 * - IPv4 is strict dotted-quad (`10.0.0.1`, `10.0.0.0/8`); ipaddr.js's lenient forms (`127.1`,
 *   `0x7f.0.0.1`) are refused, since an operator reading the list would misread them.
 * - IPv6 in any RFC 4291 form; stored in RFC 5952 form. A zone id (`fe80::1%eth0`) is refused.
 * - An IPv4-mapped IPv6 entry (`::ffff:10.0.0.1`, or `::ffff:10.0.0.0/104`) is that IPv4 entry:
 *   the client address it is matched against is normalised the same way (lib/http/clientIp.ts).
 *   An IPv4-compatible one (`::1.2.3.4`, deprecated, ::/96) stays IPv6 (`::102:304`): it is not
 *   that IPv4 address, though ipaddr.js alone reads it as mapped (lib/config/addressRanges.ts, parseIPv6).
 * - A CIDR block must be its network address: `10.1.2.3/8` is refused with the block it probably
 *   meant (`10.0.0.0/8`), so nobody believes a host is listed when a whole network is.
 * - `key:<keyId>`: an API key id (8 base62 characters). Whether the key exists is not checked: a
 *   listed key that is later deleted simply matches nothing.
 * Every parse returns a value: `{ ok: false, reason }` for an invalid entry, never a throw.
 */
import ipaddr from "ipaddr.js";
import { ID_LENGTH, ID_PATTERN } from "../../common/apiKeyFormat";
import { parseIPv6 } from "../../config/addressRanges";

export const MAX_ENTRY_CHARS = 64;
export const KEY_ENTRY_PREFIX = "key:";

/** Inclusive range of addresses: numbers for IPv4 (32 bits), bigints for IPv6 (128 bits). */
export type ParsedEntry =
  | { kind: "ipv4"; canonical: string; start: number; end: number }
  | { kind: "ipv6"; canonical: string; start: bigint; end: bigint }
  | { kind: "key"; canonical: string; keyId: string };

export type EntryParse = ({ ok: true } & ParsedEntry) | { ok: false; reason: string };

const invalid = (reason: string): EntryParse => ({ ok: false, reason });

export function ipv4ToNumber(octets: readonly number[]): number {
  return ((octets[0]! << 24) >>> 0) + (octets[1]! << 16) + (octets[2]! << 8) + octets[3]!;
}

export function ipv6ToBigInt(parts: readonly number[]): bigint {
  let value = 0n;
  for (const part of parts) value = (value << 16n) | BigInt(part);
  return value;
}

function v4Range(octets: number[], bits: number): ParsedEntry {
  const start = ipv4ToNumber(octets);
  const size = 2 ** (32 - bits);
  const address = octets.join(".");
  return { kind: "ipv4", canonical: bits === 32 ? address : `${address}/${bits}`, start, end: start + size - 1 };
}

function v6Range(address: ipaddr.IPv6, bits: number): ParsedEntry {
  const start = ipv6ToBigInt(address.parts);
  const text = address.toRFC5952String();
  return {
    kind: "ipv6",
    canonical: bits === 128 ? text : `${text}/${bits}`,
    start,
    end: start + (1n << BigInt(128 - bits)) - 1n,
  };
}

function parseAddressEntry(text: string): EntryParse {
  const slash = text.indexOf("/");
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const bitsText = slash === -1 ? null : text.slice(slash + 1);
  if (addressText.includes("%")) return invalid("an IPv6 zone id (%...) cannot be listed");
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  const v6 = addressText.includes(":") ? parseIPv6(addressText) : null;
  if (ipaddr.IPv4.isValidFourPartDecimal(addressText)) address = ipaddr.IPv4.parse(addressText);
  else if (v6) address = v6;
  else return invalid("is not an IPv4 or IPv6 address, a CIDR block or key:<keyId>");
  const maxBits = address.kind() === "ipv4" ? 32 : 128;
  let bits = maxBits;
  if (bitsText !== null) {
    if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > maxBits)
      return invalid(`has a prefix length outside 0..${maxBits}`);
    bits = Number(bitsText);
  }
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    bits -= 96;
  }
  const network =
    address.kind() === "ipv4"
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  if (network.toString() !== address.toString()) {
    const shown = network.kind() === "ipv6" ? (network as ipaddr.IPv6).toRFC5952String() : network.toString();
    return invalid(`has host bits set: the block is ${shown}/${bits}`);
  }
  const parsed =
    address.kind() === "ipv4" ? v4Range((address as ipaddr.IPv4).octets, bits) : v6Range(address as ipaddr.IPv6, bits);
  return { ok: true, ...parsed };
}

/** Parses one entry (surrounding blanks ignored). */
export function parseAccessEntry(raw: string): EntryParse {
  const text = raw.trim();
  if (text === "") return invalid("is empty");
  if (text.length > MAX_ENTRY_CHARS) return invalid(`is longer than ${MAX_ENTRY_CHARS} characters`);
  if (text.toLowerCase().startsWith(KEY_ENTRY_PREFIX)) {
    const keyId = text.slice(KEY_ENTRY_PREFIX.length);
    if (!ID_PATTERN.test(keyId)) return invalid(`is not key:<keyId> with a ${ID_LENGTH}-character key id`);
    return { ok: true, kind: "key", canonical: KEY_ENTRY_PREFIX + keyId, keyId };
  }
  return parseAddressEntry(text);
}
