/**
 * The shared workload: 1,000 subjects of one tenant, taken round-robin, and the rules the Sluice
 * cases use. Throughput rules are generous so nothing is refused; sliding_log keeps one sorted-set
 * member per admitted request, so its rules use a 1 s window to bound memory (the others use 60 s).
 */
import type { Algorithm, Decision, LimiterRule, Scope, Subject } from "../../lib/limiter/types";
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

/** A rule nothing in the benchmark reaches: 1e9 per 60 s, or 1e6 per 1 s for sliding_log. */
export function generousRule(algorithm: Algorithm, name: string, scope: Scope): LimiterRule {
  return algorithm === "sliding_log"
    ? makeRule(algorithm, name, scope, 1e6, 1000)
    : makeRule(algorithm, name, scope, 1e9, 60_000);
}

export function windowNote(algorithm: Algorithm): string | undefined {
  return algorithm === "sliding_log" ? "limit 1e6 per 1 s window (one zset member per admitted request)" : undefined;
}

/** Three rules on three different counters of each subject: per key, per IP, and a second per-key rule. */
export function threeRules(algorithm: Algorithm): LimiterRule[] {
  return [
    generousRule(algorithm, "per-key", "key"),
    generousRule(algorithm, "per-ip", "ip"),
    generousRule(algorithm, "per-key-burst", "key"),
  ];
}

/** A Sluice decision as an outcome: a fail-mode answer means Redis did not answer, an error here. */
export function outcomeOf(decision: Decision): Outcome {
  for (const r of decision.results) if (r.source !== "redis" && r.source !== "cache") return "error";
  return decision.allowed ? "ok" : "refused";
}
