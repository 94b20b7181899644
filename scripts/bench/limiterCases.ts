/**
 * Sluice `decide` throughput: 1 rule and 3 rules for each algorithm at concurrency 1 and 256 (client
 * without auto-pipelining, the production default), then the 1-rule token bucket at 256 with
 * auto-pipelining on and off.
 */
import { createLimiter, type Limiter } from "../../lib/limiter/decide";
import { ALGORITHMS, type LimiterRule, type Subject } from "../../lib/limiter/types";
import { createRedisClient, type RedisClient } from "../../lib/redis/connect";
import { runCase, type BenchContext } from "./context";
import { generousRule, outcomeOf, subjectAt, threeRules, windowNote } from "./workload";
import type { Outcome } from "./types";

export const CONCURRENCIES = [1, 256] as const;

export function sluiceClient(ctx: BenchContext, autoPipelining: boolean): RedisClient {
  return createRedisClient({ url: ctx.url, cluster: false, timeoutMs: 1000, autoPipelining });
}

export function decideOp(
  limiter: Limiter,
  rules: LimiterRule[],
  subjectFor: (seq: number) => Subject = subjectAt,
): (seq: number) => Promise<Outcome> {
  return async (seq) => outcomeOf(await limiter.decide(rules, subjectFor(seq)));
}

export async function sluiceCases(ctx: BenchContext): Promise<void> {
  const redis = sluiceClient(ctx, false);
  try {
    await redis.ping();
    for (const algorithm of ALGORITHMS) {
      // A key space per algorithm: one subject key holds the fields of every rule it has seen, so
      // the cases before would leave their (still live) fields in this case's keys, and each
      // decision would read and rewrite them all: a client with one rule has one field.
      const limiter = createLimiter({ redis, prefix: `${ctx.prefix}s${algorithm}:`, timeoutMs: 1000 });
      const sets: [label: "1rule" | "3rule", rules: LimiterRule[]][] = [
        ["1rule", [generousRule(algorithm, "per-key", "key")]],
        ["3rule", threeRules(algorithm)],
      ];
      for (const [label, rules] of sets) {
        for (const concurrency of CONCURRENCIES) {
          const note = [windowNote(algorithm), label === "3rule" ? "scopes key, ip, key" : undefined]
            .filter(Boolean)
            .join("; ");
          await runCase(
            ctx,
            { subject: "sluice", case: `decide-${label}-${algorithm}`, concurrency, ...(note ? { note } : {}) },
            decideOp(limiter, rules),
          );
        }
      }
    }
  } finally {
    await redis.quit();
  }
}

export async function autoPipeliningCases(ctx: BenchContext): Promise<void> {
  const rules = [generousRule("token_bucket", "per-key", "key")];
  for (const autoPipelining of [true, false]) {
    const redis = sluiceClient(ctx, autoPipelining);
    try {
      await redis.ping();
      const limiter = createLimiter({ redis, prefix: `${ctx.prefix}ap:`, timeoutMs: 1000 });
      const name = `decide-1rule-token_bucket-autopipelining-${autoPipelining ? "on" : "off"}`;
      await runCase(ctx, { subject: "sluice", case: name, concurrency: 256 }, decideOp(limiter, rules));
    } finally {
      await redis.quit();
    }
  }
}
