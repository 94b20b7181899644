/**
 * Redis's `maxmemory-policy`, checked at start (lib/runtime/prepareInstance.ts) and on every
 * `/api/health`.
 *
 * Sluice's counters must never be evicted: an evicted counter is a limit silently reset. Only
 * `noeviction` is safe. `allkeys-*` evicts any key under memory pressure; `volatile-*` evicts keys
 * that have a TTL, and every Sluice key has one, so it is just as unsafe here. With `noeviction` a
 * full Redis refuses writes instead: decisions then fail by each rule's failMode, visibly.
 *
 * Reading the policy: `CONFIG GET maxmemory-policy`; managed Redis often disables CONFIG (renamed
 * or denied by ACL), so `INFO memory`'s `maxmemory_policy` is the fallback; if neither answers,
 * the policy is "unknown" (reported as such, never guessed). On a Cluster every master is asked
 * and the least safe answer wins. Never throws.
 *
 * `readEvictionPolicyWhy` also says why an unknown policy is unknown: `denied` when Redis answered
 * with an error (CONFIG and INFO refused or renamed), `unreachable` when it did not answer at all
 * (connection refused, timed out): the warning names the one that happened, never "denied" for a
 * Redis that was down.
 */
import { ReplyError, type Cluster, type Redis } from "ioredis";
import type { RedisClient } from "./connect";
import { withDeadline } from "./deadline";

export type EvictionPolicy = string;
export const UNKNOWN_POLICY = "unknown";

export type EvictionVerdict = "safe" | "evicts" | "unknown";

export function evictionVerdict(policy: EvictionPolicy): EvictionVerdict {
  if (policy === "noeviction") return "safe";
  if (policy === UNKNOWN_POLICY) return "unknown";
  return "evicts";
}

/** Why a policy is unknown: Redis refused both commands, or did not answer. */
export type UnknownBecause = "denied" | "unreachable";

export interface PolicyReading {
  policy: EvictionPolicy;
  /** Set when `policy` is unknown. */
  because?: UnknownBecause;
}

const UNKNOWN_REASON: Record<UnknownBecause, string> = {
  denied: "CONFIG and INFO denied",
  unreachable: "Redis did not answer: the connection failed or timed out",
};

/** The warning logged (and shown by /api/health) for a policy that is not `noeviction`. */
export function evictionWarning(policy: EvictionPolicy, because: UnknownBecause = "denied"): string | null {
  switch (evictionVerdict(policy)) {
    case "safe":
      return null;
    case "unknown":
      return `Redis maxmemory-policy could not be read (${UNKNOWN_REASON[because]}): make sure it is noeviction, or counters may be evicted and limits silently reset`;
    case "evicts":
      return `Redis maxmemory-policy is ${policy}: under memory pressure Redis deletes rate-limit counters and limits silently reset. Set maxmemory-policy noeviction (see docs/operations.md)`;
  }
}

/** Redis answered with an error (withDeadline wraps it, keeping the reply as its cause). */
function isErrorReply(error: unknown): boolean {
  return error instanceof ReplyError || (error instanceof Error && error.cause instanceof ReplyError);
}

async function policyOfNode(node: Redis, timeoutMs: number): Promise<PolicyReading> {
  // An error reply means Redis is there and refused; anything else (closed, refused, timed out) that it is not.
  let answered = false;
  try {
    const reply = (await withDeadline(
      node,
      () => node.call("CONFIG", "GET", "maxmemory-policy"),
      timeoutMs,
    )) as unknown;
    // RESP2: ["maxmemory-policy", "noeviction"]; RESP3: { "maxmemory-policy": "noeviction" }.
    const value = Array.isArray(reply) ? reply[1] : (reply as Record<string, unknown> | null)?.["maxmemory-policy"];
    if (typeof value === "string" && value) return { policy: value };
    answered = true;
  } catch (error) {
    // CONFIG disabled or denied (or Redis unreachable): try INFO.
    answered ||= isErrorReply(error);
  }
  try {
    const info = await withDeadline(node, () => node.info("memory"), timeoutMs);
    const match = /^maxmemory_policy:(\S+)/m.exec(info);
    if (match) return { policy: match[1]! };
    answered = true;
  } catch (error) {
    // Denied too, or Redis unreachable.
    answered ||= isErrorReply(error);
  }
  return { policy: UNKNOWN_POLICY, because: answered ? "denied" : "unreachable" };
}

const RANK: Record<EvictionVerdict, number> = { safe: 0, unknown: 1, evicts: 2 };

export async function readEvictionPolicyWhy(redis: RedisClient, timeoutMs = 1_000): Promise<PolicyReading> {
  const nodes: Redis[] = redis.isCluster ? (redis as Cluster).nodes("master") : [redis as Redis];
  if (nodes.length === 0) return { policy: UNKNOWN_POLICY, because: "unreachable" };
  const readings = await Promise.all(nodes.map((node) => policyOfNode(node, timeoutMs)));
  return readings.reduce((worst, r) =>
    RANK[evictionVerdict(r.policy)] > RANK[evictionVerdict(worst.policy)] ? r : worst,
  );
}

export async function readEvictionPolicy(redis: RedisClient, timeoutMs = 1_000): Promise<EvictionPolicy> {
  return (await readEvictionPolicyWhy(redis, timeoutMs)).policy;
}
