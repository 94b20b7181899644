/**
 * The shared workload: 1,000 subjects of one tenant, taken round-robin, and the rules the Sluice
 * cases use. Throughput rules are generous so nothing is refused; sliding_log keeps one sorted-set
 * member per admitted request, so its rules use a 1 s window to bound memory (the others use 60 s).
 */
import {
  BURST_ALGORITHMS,
  type Algorithm,
  type Decision,
  type LimiterRule,
  type Scope,
  type Subject,
} from "../../lib/limiter/types";
import type { Outcome } from "./types";

export const SUBJECT_COUNT = 1000;
export const TENANT = "bench";

export const SUBJECTS: readonly Subject[] = Array.from({ length: SUBJECT_COUNT }, (_, i) => ({
  tenantId: TENANT,
  keyId: `k${i}`,
  ip: `10.0.${i >> 8}.${i & 255}`,
}));

export const KEY_IDS: readonly string[] = SUBJECTS.map((s) => s.keyId!);

export function subjectAt(seq: number): Subject {
  return SUBJECTS[seq % SUBJECT_COUNT]!;
}

export function makeRule(
  algorithm: Algorithm,
  name: string,
  scope: Scope,
  limit: number,
  windowMs: number,
  burst = limit,
): LimiterRule {
  return {
    name,
    ref: name,
    scope,
    algorithm,
    limit,
    windowMs,
    burst,
    cost: 1,
    blockMs: 0,
    failMode: "open",
    mode: "enforce",
  };
}

/** token_bucket and gcra (the algorithms with a burst): a theoretical-arrival-time state, which the generous rule keeps alive. */
const keepsTat = (algorithm: Algorithm): boolean => BURST_ALGORITHMS.includes(algorithm);

/**
 * A rule nothing in the benchmark reaches, shaped like a production rule: its ref is short, as a
 * tenant's refs are ("1", "2", ...: lib/policy/rules/ruleRefs.ts), so a subject key with one field
 * is written in the integer form production uses. Limits:
 * - token_bucket, gcra: 1,000 per 60 s with a burst of 1e9: the bucket never empties, and each
 *   client's state lives on between its requests, as an active client's does (a bucket refilling
 *   faster than the load reaches a client, 1e9 per 60 s, is full again before the client's next
 *   request: its key expires at once and every decision reads nothing);
 * - fixed_window, sliding_window: 1e9 per 60 s;
 * - sliding_log: 1e6 per 1 s (one sorted-set member per admitted request).
 */
export function generousRule(algorithm: Algorithm, name: string, scope: Scope, ref = "1"): LimiterRule {
  const rule =
    algorithm === "sliding_log"
      ? makeRule(algorithm, name, scope, 1e6, 1000)
      : keepsTat(algorithm)
        ? makeRule(algorithm, name, scope, 1000, 60_000, 1e9)
        : makeRule(algorithm, name, scope, 1e9, 60_000);
  return { ...rule, ref };
}

export function windowNote(algorithm: Algorithm): string | undefined {
  if (algorithm === "sliding_log") return "limit 1e6 per 1 s window (one zset member per admitted request)";
  if (keepsTat(algorithm)) return "1,000 per 60 s, burst 1e9 (state kept between requests)";
  return undefined;
}

/** Three rules on three different counters of each subject: per key, per IP, and a second per-key rule. */
export function threeRules(algorithm: Algorithm): LimiterRule[] {
  return [
    generousRule(algorithm, "per-key", "key", "1"),
    generousRule(algorithm, "per-ip", "ip", "2"),
    generousRule(algorithm, "per-key-burst", "key", "3"),
  ];
}

/** A Sluice decision as an outcome: a fail-mode answer means Redis did not answer, an error here. */
export function outcomeOf(decision: Decision): Outcome {
  for (const r of decision.results) if (r.source !== "redis" && r.source !== "cache") return "error";
  return decision.allowed ? "ok" : "refused";
}
