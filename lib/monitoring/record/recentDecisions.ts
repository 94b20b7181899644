/**
 * Recent decisions per API key: what the dashboard's key page lists ("why was this client refused
 * just now?"). Built in memory on the request path (one small object per decision, no I/O) and
 * written by the per-second flush (lib/monitoring/record/flushCommands.ts) to a Redis list per key:
 * LPUSH + LTRIM to RECENT_DECISIONS_KEPT + PEXPIRE RETENTION_MS (lib/monitoring/record/monitoringKeys.ts).
 *
 * One entry: when, the request line (method, and the path without its query string, at most
 * MAX_PATH_CHARS), whether it was admitted, whether it was refused because Redis could not answer
 * under a `closed` rule (`unavailable`), the names of the shadow rules that would have refused it,
 * the enforce rule that refused it (the one that holds it back longest), and the lowest remaining
 * quota over its enforce rules (null when no rule with real quota applied: no rule matched, or
 * every rule was answered by fail-open or fail-closed), and `status`: the status the admitted
 * request was answered with (the upstream's, or the gateway's own 502/504), when it was known by
 * the time of the flush (absent otherwise: still in flight, the client went away, a refusal). So an
 * upstream outage is not listed as plain "allowed" (issue 31, point 4).
 *
 * Bounds of one flush interval (`RecentBuffer`): at most `perKey` entries per key (older ones of the
 * interval are dropped: they would be trimmed anyway), at most `maxEntries` in all (once reached,
 * keys already seen in the interval keep their newest entries, and keys not yet seen are not kept
 * and count as overflow).
 */
import { z } from "zod";
import type { Decision, RuleResult } from "../../limiter/types";

export const recentDecisionSchema = z.object({
  atMs: z.number().int().meta({ description: "Epoch ms at which the request was decided (this instance's clock)." }),
  method: z.string(),
  path: z.string(),
  allowed: z.boolean(),
  unavailable: z.boolean(),
  shadowRefused: z.array(z.string()),
  refusedBy: z.string().nullable(),
  remaining: z.number().nullable(),
  status: z
    .number()
    .int()
    .optional()
    .meta({ description: "The status the admitted request was answered with, once known." }),
});
/** One recent decision (the answer's one description, GET /api/admin/keys/{keyId}/decisions). */
export type RecentDecision = z.infer<typeof recentDecisionSchema>;

/**
 * Filled in with the status once the answer is sent (lib/dataplane/admittedAnswer.ts AnswerStatus), after the entry
 * was made at admission: read when the entry is written (the next flush), memory only.
 */
export interface AnswerBox {
  status: number | null;
}

export const MAX_PATH_CHARS = 200;
export const MAX_METHOD_CHARS = 16;

const QUOTA_SOURCES = new Set<RuleResult["source"]>(["redis", "cache", "fail_local"]);

/** The enforce rule that refused (the longest retry wins, first in order on a tie), or null. */
export function refusingRule(decision: Decision): string | null {
  let worst: RuleResult | null = null;
  for (const r of decision.results) {
    if (r.rule.mode !== "enforce" || r.allowed) continue;
    if (!worst || r.retryAfterMs > worst.retryAfterMs) worst = r;
  }
  return worst?.rule.name ?? null;
}

function lowestRemaining(decision: Decision): number | null {
  let lowest: number | null = null;
  for (const r of decision.results) {
    if (r.rule.mode !== "enforce" || !QUOTA_SOURCES.has(r.source)) continue;
    if (lowest === null || r.remaining < lowest) lowest = r.remaining;
  }
  return lowest;
}

/** The entry of one request; `decision` null when no rule matched (admitted without a decision). */
export function recentDecision(
  decision: Decision | null,
  method: string,
  path: string,
  atMs: number,
  answered?: AnswerBox,
): RecentDecision {
  const entry: RecentDecision = {
    atMs,
    method: method.slice(0, MAX_METHOD_CHARS),
    path: path.slice(0, MAX_PATH_CHARS),
    allowed: decision === null || decision.allowed,
    unavailable: decision?.unavailable ?? false,
    shadowRefused: decision
      ? decision.results.filter((r) => r.rule.mode === "shadow" && !r.allowed).map((r) => r.rule.name)
      : [],
    refusedBy: decision ? refusingRule(decision) : null,
    remaining: decision ? lowestRemaining(decision) : null,
  };
  // Read when the flush serializes the entry (JSON.stringify leaves it out while still unknown).
  if (answered) Object.defineProperty(entry, "status", { enumerable: true, get: () => answered.status ?? undefined });
  return entry;
}

/** Parses one stored entry defensively: anything that is not a well-formed entry reads as null. */
export function parseRecentDecision(raw: unknown): RecentDecision | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const isName = (x: unknown): x is string => typeof x === "string";
  if (
    typeof v.atMs !== "number" ||
    !Number.isFinite(v.atMs) ||
    typeof v.method !== "string" ||
    typeof v.path !== "string" ||
    typeof v.allowed !== "boolean" ||
    typeof v.unavailable !== "boolean" ||
    !Array.isArray(v.shadowRefused) ||
    !v.shadowRefused.every(isName) ||
    !(v.refusedBy === null || isName(v.refusedBy)) ||
    !(v.remaining === null || (typeof v.remaining === "number" && Number.isFinite(v.remaining))) ||
    !(v.status === undefined || (typeof v.status === "number" && Number.isInteger(v.status)))
  ) {
    return null;
  }
  return {
    atMs: v.atMs,
    method: v.method,
    path: v.path,
    allowed: v.allowed,
    unavailable: v.unavailable,
    shadowRefused: v.shadowRefused,
    refusedBy: v.refusedBy,
    remaining: v.remaining,
    ...(typeof v.status === "number" ? { status: v.status } : {}),
  };
}

export interface RecentKey {
  tenantId: string;
  keyId: string;
  /** Oldest first: the order LPUSH needs to leave the newest at the head. */
  entries: RecentDecision[];
}

/** One flush interval's recent decisions, bounded per key and in all. */
export class RecentBuffer {
  readonly keys = new Map<string, RecentKey>();
  private total = 0;

  constructor(
    private readonly perKey: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.total;
  }

  /** Returns false when the entry could not be kept (the bound on entries was reached). */
  add(tenantId: string, keyId: string, entry: RecentDecision): boolean {
    const id = `${tenantId}\n${keyId}`;
    let key = this.keys.get(id);
    if (!key) {
      if (this.total >= this.maxEntries) return false;
      this.keys.set(id, (key = { tenantId, keyId, entries: [] }));
    }
    key.entries.push(entry);
    // A full key, or a full buffer, keeps its newest entries: the oldest of this key makes room.
    if (key.entries.length > this.perKey || this.total >= this.maxEntries) key.entries.shift();
    else this.total++;
    return true;
  }
}
