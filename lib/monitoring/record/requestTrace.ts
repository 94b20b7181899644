/**
 * The request trace: each tenant's recent requests, kept so the rule simulator (lib/control/simulator/) can
 * replay them against candidate rules. Recorded on the request path into the in-memory batch (one
 * short string per request, no I/O) and written by the per-second flush (lib/monitoring/record/flushCommands.ts
 * `traceCommandChunks`: transactions of TRACE_CHUNK entries each, sent one after the other) to a
 * Redis Stream per tenant, `{T}mq` (lib/monitoring/record/monitoringKeys.ts):
 *   XADD MAXLEN ~ <max> * <fields>   per request (the stream keeps about the newest `max`),
 *   XTRIM MINID ~ <newest - 24 h>    once per chunk (nothing older than a day is kept),
 *   PEXPIRE RETENTION_MS             (a tenant without traffic loses its trace a day later).
 *
 * One entry is ONE field, `e`, whose value is the request's parts separated by single spaces, in
 * this order (one field instead of eight: XRANGE of 100,000 entries parses about five times
 * faster, and the stream is no larger):
 *   t  epoch ms the limiter decided at (the Lua's own time, so a replay at that time is exact);
 *      the recorder's clock for a request no rule matched
 *   k  API key id, or a JWT caller's monitoring id ("-" when none), followed by `^<tier>` when the
 *      caller was in a tier (lib/policy/tiers: tier names hold no `^` or space; older entries have none)
 *   i  client IP ("-" when unknown)
 *   m  method
 *   c  units charged: the summed cost of the rules that consumed (0 when refused or unmatched)
 *   d  "1" admitted, "0" refused by a rule (429), "u" refused because Redis was unavailable (503)
 *   r  the enforce rule that refused it ("-" when admitted)
 *   p  path, last: no query string, at most MAX_PATH_CHARS; it is the rest of the value, so even
 *      a space in it could not shift the other parts (none of which can hold a space)
 * Stream ids are assigned by Redis at flush time, so an entry's id is at or after its `t` (by up
 * to the flush interval plus its timeout); readers select by `t`.
 *
 * Bounded in memory like the rest of the batch: at most `maxEntries` per flush interval, past
 * which requests are not kept and count as overflow. Pseudo-tenants (`-anon`) are never traced.
 */
import type { Decision } from "../../limiter/types";
import { MAX_METHOD_CHARS, MAX_PATH_CHARS, refusingRule } from "./recentDecisions";

export interface TraceEntry {
  tenantId: string;
  atMs: number;
  keyId: string | null;
  /** The tier the caller was in (a key's `tier`, a JWT's tierClaim); absent: none. */
  tier?: string;
  ip: string | null;
  method: string;
  path: string;
  cost: number;
  decision: "allowed" | "refused" | "unavailable";
  refusedBy: string | null;
}

/** Nothing older than this (by stream id) is kept. */
export const TRACE_MAX_AGE_MS = 86_400_000;

const DECISION_CODE = { allowed: "1", refused: "0", unavailable: "u" } as const;

export function traceEntry(
  request: { tenantId: string; keyId?: string; tier?: string; ip?: string; method: string; path: string },
  decision: Decision | null,
  nowMs: number,
): TraceEntry {
  const admitted = decision === null || decision.allowed;
  let cost = 0;
  if (decision && admitted) for (const r of decision.results) if (r.allowed) cost += r.rule.cost;
  return {
    tenantId: request.tenantId,
    atMs: decision ? decision.nowMs : nowMs,
    keyId: request.keyId ?? null,
    ...(request.tier !== undefined ? { tier: request.tier } : {}),
    ip: request.ip ?? null,
    method: request.method.slice(0, MAX_METHOD_CHARS),
    path: request.path.slice(0, MAX_PATH_CHARS),
    cost,
    decision: admitted ? "allowed" : decision.unavailable ? "unavailable" : "refused",
    refusedBy: decision && !admitted ? refusingRule(decision) : null,
  };
}

export const TRACE_FIELD = "e";
const NONE = "-";
/** Separates the caller from its tier in the `k` part. */
const TIER_MARK = "^";

/** The value of an entry's one field (see the header for the layout). */
export function traceValue(entry: TraceEntry): string {
  const caller = entry.tier === undefined ? (entry.keyId ?? NONE) : `${entry.keyId ?? NONE}${TIER_MARK}${entry.tier}`;
  return `${entry.atMs} ${caller} ${entry.ip ?? NONE} ${entry.method} ${entry.cost} ${DECISION_CODE[entry.decision]} ${entry.refusedBy ?? NONE} ${entry.path}`;
}

/** The XADD field/value list of an entry (see the header for the layout). */
export function traceFields(entry: TraceEntry): [string, string] {
  return [TRACE_FIELD, traceValue(entry)];
}

const DECISION_OF: Record<string, TraceEntry["decision"]> = { "1": "allowed", "0": "refused", u: "unavailable" };
const orNull = (part: string): string | null => (part === NONE ? null : part);

/** One XRANGE entry's field/value list, parsed defensively: anything malformed reads as null. */
export function parseTraceFields(tenantId: string, raw: unknown): TraceEntry | null {
  if (!Array.isArray(raw) || raw.length !== 2 || raw[0] !== TRACE_FIELD || typeof raw[1] !== "string") return null;
  const value = raw[1];
  const parts: string[] = [];
  let at = 0;
  for (let n = 0; n < 7; n++) {
    const space = value.indexOf(" ", at);
    if (space < 0) return null;
    parts.push(value.slice(at, space));
    at = space + 1;
  }
  const [t, caller, ip, method, c, d, refusedBy] = parts as [string, string, string, string, string, string, string];
  const mark = caller.indexOf(TIER_MARK);
  const keyId = mark < 0 ? caller : caller.slice(0, mark);
  const atMs = Number(t);
  const cost = Number(c);
  const decision = DECISION_OF[d];
  if (!Number.isSafeInteger(atMs) || !Number.isSafeInteger(cost) || decision === undefined || method === "")
    return null;
  return {
    tenantId,
    atMs,
    keyId: orNull(keyId),
    ...(mark >= 0 && mark < caller.length - 1 ? { tier: caller.slice(mark + 1) } : {}),
    ip: orNull(ip),
    method,
    path: value.slice(at),
    cost,
    decision,
    refusedBy: orNull(refusedBy),
  };
}

/** One tenant's entries of one flush interval: their values (traceValue), oldest first, and the newest `t`. */
export interface TenantTrace {
  newestMs: number;
  values: string[];
}

/**
 * One flush interval's trace entries, bounded. Kept as their packed values, not as objects: they
 * live until the flush (a second), long enough to be promoted out of V8's young generation, so
 * each object kept would be copied and later collected by a full GC (at 10,000+ requests a second).
 */
export class TraceBuffer {
  readonly byTenant = new Map<string, TenantTrace>();
  private total = 0;

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.total;
  }

  /** Returns false when the bound was reached and the entry was not kept. */
  add(entry: TraceEntry): boolean {
    if (this.total >= this.maxEntries) return false;
    let trace = this.byTenant.get(entry.tenantId);
    if (!trace) this.byTenant.set(entry.tenantId, (trace = { newestMs: 0, values: [] }));
    trace.values.push(traceValue(entry));
    if (entry.atMs > trace.newestMs) trace.newestMs = entry.atMs;
    this.total++;
    return true;
  }
}
