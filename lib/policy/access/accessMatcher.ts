/**
 * A tenant's access lists compiled for the request path: built once per load of the tenant
 * (lib/policy/compiled/accessLoader.ts), asked once per request (lib/dataplane/admission/admit.ts).
 *
 * Contract
 * - `verdict(ip, keyId)` is `"deny"` when the address or the key is on the deny list, else
 *   `"allow"` when either is on the allow list, else null (the rules decide). Deny wins.
 * - `ip` is the client address admission limits by (lib/http/clientIp.ts), matched as the whole
 *   address (not the /64 an `ip` rule counts IPv6 by). An IPv4-mapped IPv6 address matches IPv4
 *   entries; an IPv4-compatible one (`::1.2.3.4`) is IPv6 and matches IPv6 entries, as it is stored. Anything that is not an address (`unknown`) matches no address entry.
 * - Cost per request: O(log n) in the number of address entries. Each list's blocks are merged
 *   into disjoint sorted ranges (overlaps and adjacent blocks joined) and a binary search finds the
 *   one range that could hold the address; key entries are a Set lookup. Never a scan.
 * Entries are expected to have passed accessListsSchema; one that does not parse is skipped.
 */
import { parseIPv6 } from "../../config/addressRanges";
import { ipv4ToNumber, ipv6ToBigInt, parseAccessEntry } from "./accessEntry";
import type { AccessLists } from "./accessListSchema";

export type AccessVerdict = "allow" | "deny";

/** Disjoint sorted inclusive ranges, searched by binary search. */
class RangeSet<T extends number | bigint> {
  private readonly starts: T[] = [];
  private readonly ends: T[] = [];

  /** `next(v)`: the address after v, so adjacent blocks (10.0.0.0/25 and 10.0.0.128/25) join. */
  constructor(ranges: [T, T][], next: (value: T) => T) {
    ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [start, end] of ranges) {
      const last = this.ends.length - 1;
      if (last >= 0 && start <= next(this.ends[last]!)) {
        if (end > this.ends[last]!) this.ends[last] = end;
      } else {
        this.starts.push(start);
        this.ends.push(end);
      }
    }
  }

  get size(): number {
    return this.starts.length;
  }

  has(value: T): boolean {
    // The last range starting at or before `value`.
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! <= value) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && value <= this.ends[found]!;
  }
}

/** One list (allow or deny), compiled. */
class CompiledList {
  private readonly v4: RangeSet<number>;
  private readonly v6: RangeSet<bigint>;
  private readonly keys: Set<string>;

  constructor(entries: readonly string[]) {
    const v4: [number, number][] = [];
    const v6: [bigint, bigint][] = [];
    const keys = new Set<string>();
    for (const entry of entries) {
      const parsed = parseAccessEntry(entry);
      if (!parsed.ok) continue;
      if (parsed.kind === "ipv4") v4.push([parsed.start, parsed.end]);
      else if (parsed.kind === "ipv6") v6.push([parsed.start, parsed.end]);
      else keys.add(parsed.keyId);
    }
    this.v4 = new RangeSet(v4, (v) => v + 1);
    this.v6 = new RangeSet(v6, (v) => v + 1n);
    this.keys = keys;
  }

  get empty(): boolean {
    return this.v4.size === 0 && this.v6.size === 0 && this.keys.size === 0;
  }

  get hasAddresses(): boolean {
    return this.v4.size > 0 || this.v6.size > 0;
  }

  matches(address: ParsedAddress | null, keyId: string | undefined): boolean {
    if (keyId !== undefined && this.keys.has(keyId)) return true;
    if (address === null) return false;
    return typeof address === "number" ? this.v4.has(address) : this.v6.has(address);
  }
}

/** An IPv4 address as a number, an IPv6 address as a bigint. */
type ParsedAddress = number | bigint;

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The client address as a number (IPv4, mapped IPv6 included) or bigint (IPv6); null: not an address. */
export function parseClientAddress(ip: string): ParsedAddress | null {
  const quad = DOTTED_QUAD.exec(ip);
  if (quad) {
    const octets = [Number(quad[1]), Number(quad[2]), Number(quad[3]), Number(quad[4])];
    return octets.every((o) => o <= 255) ? ipv4ToNumber(octets) : null;
  }
  if (!ip.includes(":")) return null;
  const bare = ip.includes("%") ? ip.slice(0, ip.indexOf("%")) : ip;
  const v6 = parseIPv6(bare);
  if (!v6) return null;
  return v6.isIPv4MappedAddress() ? ipv4ToNumber(v6.toIPv4Address().octets) : ipv6ToBigInt(v6.parts);
}

export class AccessMatcher {
  private readonly allow: CompiledList;
  private readonly deny: CompiledList;

  constructor(lists: AccessLists) {
    this.allow = new CompiledList(lists.allow);
    this.deny = new CompiledList(lists.deny);
  }

  /** No entry at all: admission can skip the lists. */
  get empty(): boolean {
    return this.allow.empty && this.deny.empty;
  }

  verdict(ip: string, keyId: string | undefined): AccessVerdict | null {
    if (this.empty) return null;
    const address = this.allow.hasAddresses || this.deny.hasAddresses ? parseClientAddress(ip) : null;
    if (this.deny.matches(address, keyId)) return "deny";
    if (this.allow.matches(address, keyId)) return "allow";
    return null;
  }
}

export function compileAccessLists(lists: AccessLists): AccessMatcher {
  return new AccessMatcher(lists);
}
