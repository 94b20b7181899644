/**
 * Warms the limiter before an instance reports ready: a freshly started process otherwise spends
 * its first requests' Redis budget connecting, loading decide.lua (EVALSHA → NOSCRIPT → EVAL) and
 * compiling the decision path, and those requests fall into their fail modes although Redis is
 * fast (issue 15, point 14: a fresh instance's first burst admitted 17 of a limit of 12).
 *
 * Loads the decide function and script on every master (FUNCTION LOAD, SCRIPT LOAD), then runs peeks (which never write) for a rule of
 * each algorithm under the pseudo-tenant `-warm` until WARM_ROUNDS have been answered by Redis or
 * WARM_BUDGET_MS has passed. Never throws: a Redis that is down is the fail modes' business.
 */
import type { Cluster, Redis } from "ioredis";
import type { RedisClient } from "../redis/connect";
import type { Limiter } from "./decide";
import { decideLibrary, decideScript } from "./decideScript";
import { ALGORITHMS, type LimiterRule } from "./types";

export const WARM_TENANT = "-warm";
const WARM_ROUNDS = 20;
const WARM_BUDGET_MS = 5_000;

const warmRules: LimiterRule[] = ALGORITHMS.map((algorithm, i) => ({
  name: `warm-${i}`,
  ref: `w${i}`,
  scope: "tenant",
  algorithm,
  limit: 10,
  windowMs: 1_000,
  burst: 10,
  cost: 1,
  blockMs: 0,
  failMode: "open",
  mode: "enforce",
}));

export async function warmLimiter(redis: RedisClient, limiter: Limiter): Promise<{ answered: number }> {
  const started = Date.now();
  try {
    if (redis.status === "wait") await redis.connect();
    const nodes: Redis[] = redis.isCluster ? (redis as Cluster).nodes("master") : [redis as Redis];
    await Promise.all(
      nodes.flatMap((node) => [
        node.script("LOAD", decideScript.source()),
        node.call("FUNCTION", "LOAD", "REPLACE", decideLibrary().code),
      ]),
    );
  } catch {
    // Down or refusing (an ACL without functions): the peeks below fail fast, and a missing
    // function or script is loaded by the first decision that needs it (decideScript.ts).
  }
  let answered = 0;
  while (answered < WARM_ROUNDS && Date.now() - started < WARM_BUDGET_MS) {
    try {
      await Promise.all([
        limiter.peek(warmRules, { tenantId: WARM_TENANT }),
        limiter.peek(warmRules.slice(0, 1), { tenantId: WARM_TENANT }),
      ]);
      answered++;
    } catch {
      // Timed out while cold, or Redis down: wait a little and try again within the budget.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { answered };
}
