/**
 * Access-list matching cost per request (`BENCH_ONLY=access`, issue 17 point 2): a tenant's deny
 * list of 1,000 entries (500 IPv4 /24 blocks, 400 IPv6 /48 blocks, 100 `key:` entries, scattered)
 * compiled as admission uses it (lib/policy/access/accessMatcher.ts: sorted ranges, binary search), against
 * a linear scan of the same 1,000 pre-parsed entries (the baseline: what a list without an index
 * costs). Both parse the client address the same way, so the rows differ only in the lookup.
 * Clients: 100,000 addresses, 70 % IPv4 not listed (a scan's worst case: every entry is tried),
 * 20 % IPv4 listed, 10 % IPv6 (half listed), each with a key id that is not listed.
 * Pure CPU in this process, no Redis. Each row: ops/s = lookups per second; p50/p99 over batches
 * of 1,000 lookups, as ms per lookup; the note says µs per lookup.
 */
import { parseAccessEntry } from "../../lib/policy/access/accessEntry";
import { compileAccessLists, parseClientAddress } from "../../lib/policy/access/accessMatcher";
import type { BenchContext } from "./context";
import { BATCH, lookupLoop, lookupRow } from "./lookupLoop";
import { round } from "./measure";
import type { RunRow } from "./types";

export const ACCESS_ENTRIES = 1_000;
const CLIENTS = 100_000;

function denyList(): string[] {
  const entries: string[] = [];
  for (let i = 0; i < 500; i++) entries.push(`${11 + (i % 200)}.${(i * 37) % 256}.${(i * 91) % 256}.0/24`);
  for (let i = 0; i < 400; i++) entries.push(`2001:db8:${(i * 131).toString(16)}::/48`);
  for (let i = 0; i < 100; i++) entries.push(`key:Deny${String(i).padStart(4, "0")}`);
  return entries;
}

function clients(list: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const r = i % 10;
    if (r < 7)
      out.push(`${220 + (i % 30)}.${i % 256}.${(i >> 8) % 256}.${i % 250}`); // not listed
    else if (r < 9)
      out.push(list[i % 500]!.replace(/0\/24$/, String(1 + (i % 250)))); // inside a listed /24
    else
      out.push(
        Math.floor(i / 10) % 2
          ? `2001:db8:${((i % 400) * 131).toString(16)}::${(i % 65535).toString(16)}`
          : `2001:db9::${(i % 65535).toString(16)}`,
      );
  }
  return out;
}

type Lookup = (ip: string, keyId: string) => boolean;

/** The baseline: every entry tried in turn until one matches. */
function linearScan(list: string[]): Lookup {
  const parsed = list.map((entry) => parseAccessEntry(entry)).filter((p) => p.ok);
  return (ip, keyId) => {
    const address = parseClientAddress(ip);
    for (const entry of parsed) {
      if (entry.kind === "key") {
        if (entry.keyId === keyId) return true;
      } else if (address !== null && typeof address === (entry.kind === "ipv4" ? "number" : "bigint")) {
        if (entry.start <= address && address <= entry.end) return true;
      }
    }
    return false;
  };
}

function sortedRanges(list: string[]): Lookup {
  const matcher = compileAccessLists({ allow: [], deny: list });
  return (ip, keyId) => matcher.verdict(ip, keyId) === "deny";
}

async function measure(
  ctx: BenchContext,
  name: string,
  lookup: Lookup,
  ips: string[],
  note: string,
): Promise<{ row: RunRow; matched: number }> {
  const keyId = "Other001";
  const m = await lookupLoop(ctx.settings, ips.length, (i) => lookup(ips[i]!, keyId));
  const row = lookupRow(
    name,
    `match-${ACCESS_ENTRIES}-entries`,
    m,
    `${note}; ${round(m.p50Ms * 1000, 3)} µs per lookup (p50 of ${BATCH}-lookup batches); refused % = lookups that matched the deny list`,
  );
  return { row, matched: m.matched };
}

export async function accessListCases(ctx: BenchContext): Promise<void> {
  const list = denyList();
  const ips = clients(list);
  // Both must agree on every client before their speed means anything.
  const [scan, ranges] = [linearScan(list), sortedRanges(list)];
  for (const ip of ips)
    if (scan(ip, "Other001") !== ranges(ip, "Other001"))
      throw new Error(`access bench: the matchers disagree on ${ip}`);
  const results = [
    await measure(
      ctx,
      "sluice-access-list",
      ranges,
      ips,
      "sorted ranges + binary search (lib/policy/access/accessMatcher.ts), as admission uses them",
    ),
    await measure(ctx, "linear-scan-baseline", scan, ips, "the same 1,000 pre-parsed entries tried in turn"),
  ];
  for (const { row } of results) {
    ctx.rows.push(row);
    console.log(
      `  ${row.subject.padEnd(22)} ${row.case}: ${row.opsPerSec} lookups/s, p50 ${round(row.p50Ms * 1000, 3)} µs per lookup`,
    );
  }
}
