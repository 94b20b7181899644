/**
 * Parses decide.lua's reply, defensively: anything but the documented shape is an error
 * (treated like an unavailable Redis by the caller), never a half-read decision.
 *
 * Reply: [ now_ms, committed(0|1), then per rule: allowed(0|1|2), remaining, reset_ms, retry_after_ms, next_ms ]
 * allowed is 1 when the rule admits, 0 when it refuses, 2 when it refuses under a penalty in force.
 * retry_after_ms is -1 when the request can never pass (its cost exceeds the rule's capacity).
 */
import { summarize } from "./failModeDecision";
import type { Decision, LimiterRule, RuleResult } from "./types";

export interface ParsedRule {
  allowed: boolean;
  /** Refused under a penalty that was in force before this request. */
  penalized: boolean;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
  nextMs: number;
}

export interface ParsedReply {
  nowMs: number;
  committed: boolean;
  rules: ParsedRule[];
}

const PER_RULE = 5;

function int(value: unknown, what: string): number {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n))
    throw new Error(`decide reply: ${what} is not an integer: ${String(value)}`);
  return n;
}

export function parseDecideReply(reply: unknown, ruleCount: number): ParsedReply {
  if (!Array.isArray(reply) || reply.length !== 2 + PER_RULE * ruleCount) {
    throw new Error(
      `decide reply: expected ${2 + PER_RULE * ruleCount} items, got ${Array.isArray(reply) ? reply.length : typeof reply}`,
    );
  }
  const rules: ParsedRule[] = [];
  for (let i = 0; i < ruleCount; i++) {
    const at = 2 + i * PER_RULE;
    const verdict = int(reply[at], "allowed");
    if (verdict < 0 || verdict > 2) throw new Error(`decide reply: allowed is not 0, 1 or 2: ${verdict}`);
    rules.push({
      allowed: verdict === 1,
      penalized: verdict === 2,
      remaining: int(reply[at + 1], "remaining"),
      resetMs: int(reply[at + 2], "reset"),
      retryAfterMs: int(reply[at + 3], "retry"),
      nextMs: int(reply[at + 4], "next"),
    });
  }
  return { nowMs: int(reply[0], "now"), committed: int(reply[1], "committed") === 1, rules };
}

/**
 * A parsed reply as the request's Decision: each rule's figures (a retry of -1, a cost that can never
 * pass, advises one window), summarized; when the call committed and `lease` was sent, the
 * concurrency slots the request took.
 */
export function decisionFromReply(rules: LimiterRule[], keys: string[], lease: string, parsed: ParsedReply): Decision {
  const results: RuleResult[] = parsed.rules.map((r, i) => ({
    rule: rules[i]!,
    allowed: r.allowed,
    ...(r.penalized ? { penalized: true } : {}),
    limit: rules[i]!.limit,
    remaining: r.remaining,
    resetMs: r.resetMs,
    // -1: the cost exceeds the rule's capacity and can never pass; advise one window.
    retryAfterMs: r.retryAfterMs < 0 ? rules[i]!.windowMs : r.retryAfterMs,
    nextMs: r.nextMs,
    source: "redis",
  }));
  const decision = summarize(results, parsed.nowMs);
  if (lease !== "" && parsed.committed) {
    // Every concurrency rule that allowed took its slot (shadow ones too: they count as if enforced).
    const held = rules.flatMap((rule, i) =>
      rule.algorithm === "concurrency" && rule.cost > 0 && results[i]!.allowed ? [i] : [],
    );
    if (held.length > 0)
      decision.lease = { id: lease, keys: held.map((i) => keys[i]!), rules: held.map((i) => rules[i]!) };
  }
  return decision;
}
