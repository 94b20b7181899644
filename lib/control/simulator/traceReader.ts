/**
 * Reads a tenant's recorded requests (lib/monitoring/record/requestTrace.ts) for one range, oldest first.
 *
 * - Entries are selected by their recorded time `t` in [fromMs, toMs). Stream ids are assigned at
 *   flush time, at or after `t` (by the flush interval plus its timeout), so the id range read is
 *   [fromMs, toMs + ID_LAG_MS], with XRANGE in chunks of READ_CHUNK (exclusive `(` restarts).
 * - Sorted by `t`, stably: several instances flush in their own order; one instance's entries
 *   are in the order its limiter decided them, which a tie on `t` keeps.
 * - At most `cap` entries: with more in the range, the first `cap` by time and `truncated`.
 * - `recordedFromMs`: the time of the oldest entry still kept (null when the stream is empty).
 * Every call runs under `timeoutMs` (lib/redis/deadline.ts): Redis down or slow rejects with
 * LimiterUnavailableError. Malformed entries are skipped.
 */
import { monitoringKeys } from "../../monitoring/record/monitoringKeys";
import { parseTraceFields, type TraceEntry } from "../../monitoring/record/requestTrace";
import type { RedisClient } from "../../redis/connect";
import { withDeadline } from "../../redis/deadline";

/** Longest an entry's stream id may trail its recorded time (flush interval + flush timeout, with margin). */
export const ID_LAG_MS = 10_000;
/** Entries per XRANGE: a call reads about 100 KB and holds Redis well under a millisecond. */
const READ_CHUNK = 1_000;

export interface TraceRange {
  fromMs: number;
  toMs: number;
}

export interface TraceRead {
  entries: TraceEntry[];
  truncated: boolean;
}

type RawEntry = [id: string, fields: unknown];

function isRawEntries(value: unknown): value is RawEntry[] {
  return Array.isArray(value) && value.every((e) => Array.isArray(e) && typeof e[0] === "string");
}

export interface TraceReaderDeps {
  redis: RedisClient;
  prefix: string;
  timeoutMs: number;
}

async function xrange(
  deps: TraceReaderDeps,
  key: string,
  start: string,
  end: string,
  count: number,
): Promise<RawEntry[]> {
  const reply = await withDeadline(
    deps.redis,
    () => deps.redis.call("XRANGE", key, start, end, "COUNT", count),
    deps.timeoutMs,
  );
  if (!isRawEntries(reply)) throw new Error("XRANGE answered something other than a list of entries");
  return reply;
}

/** The recorded time of the tenant's oldest kept request, or null. */
export async function oldestRecorded(deps: TraceReaderDeps, tenantId: string): Promise<number | null> {
  const key = monitoringKeys(deps.prefix, tenantId).trace();
  const [first] = await xrange(deps, key, "-", "+", 1);
  return first ? (parseTraceFields(tenantId, first[1])?.atMs ?? null) : null;
}

export async function readTrace(
  deps: TraceReaderDeps,
  tenantId: string,
  range: TraceRange,
  cap: number,
): Promise<TraceRead> {
  const key = monitoringKeys(deps.prefix, tenantId).trace();
  const end = String(range.toMs + ID_LAG_MS);
  const entries: TraceEntry[] = [];
  let start = String(range.fromMs);
  // Read a little past the cap: ids trail times, so an entry read later may still sort earlier.
  while (entries.length <= cap + READ_CHUNK) {
    const chunk = await xrange(deps, key, start, end, READ_CHUNK);
    for (const [, fields] of chunk) {
      const entry = parseTraceFields(tenantId, fields);
      if (entry && entry.atMs >= range.fromMs && entry.atMs < range.toMs) entries.push(entry);
    }
    if (chunk.length < READ_CHUNK) break;
    start = `(${chunk[chunk.length - 1]![0]}`;
  }
  entries.sort((a, b) => a.atMs - b.atMs);
  const truncated = entries.length > cap;
  return { entries: truncated ? entries.slice(0, cap) : entries, truncated };
}
