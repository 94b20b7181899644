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
 */
import type { Cluster, Redis } from "ioredis";
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

/** The warning logged (and shown by /api/health) for a policy that is not `noeviction`. */
export function evictionWarning(policy: EvictionPolicy): string | null {
  switch (evictionVerdict(policy)) {
    case "safe":
      return null;
    case "unknown":
      return "Redis maxmemory-policy could not be read (CONFIG and INFO denied): make sure it is noeviction, or counters may be evicted and limits silently reset";
    case "evicts":
      return `Redis maxmemory-policy is ${policy}: under memory pressure Redis deletes rate-limit counters and limits silently reset. Set maxmemory-policy noeviction (see docs/operations.md)`;
  }
}

async function policyOfNode(node: Redis, timeoutMs: number): Promise<EvictionPolicy> {
  try {
    const reply = (await withDeadline(
      node,
      () => node.call("CONFIG", "GET", "maxmemory-policy"),
      timeoutMs,
    )) as unknown;
    // RESP2: ["maxmemory-policy", "noeviction"]; RESP3: { "maxmemory-policy": "noeviction" }.
    const value = Array.isArray(reply) ? reply[1] : (reply as Record<string, unknown> | null)?.["maxmemory-policy"];
    if (typeof value === "string" && value) return value;
  } catch {
    // CONFIG disabled or denied: try INFO.
  }
  try {
    const info = await withDeadline(node, () => node.info("memory"), timeoutMs);
    const match = /^maxmemory_policy:(\S+)/m.exec(info);
    if (match) return match[1]!;
  } catch {
    // Denied too, or Redis unreachable.
  }
  return UNKNOWN_POLICY;
}

const RANK: Record<EvictionVerdict, number> = { safe: 0, unknown: 1, evicts: 2 };

export async function readEvictionPolicy(redis: RedisClient, timeoutMs = 1_000): Promise<EvictionPolicy> {
  const nodes: Redis[] = redis.isCluster ? (redis as Cluster).nodes("master") : [redis as Redis];
  if (nodes.length === 0) return UNKNOWN_POLICY;
  const policies = await Promise.all(nodes.map((node) => policyOfNode(node, timeoutMs)));
  return policies.reduce((worst, p) => (RANK[evictionVerdict(p)] > RANK[evictionVerdict(worst)] ? p : worst));
}
