/**
 * The peers: rate-limiter-flexible's RateLimiterRedis (`consume`, one Lua call per request) on the
 * same 1,000-subject workload, and the ceiling of this client/server pair: auto-pipelined INCR.
 * rate-limiter-flexible gets a client built exactly like Sluice's (createRedisClient), so only the
 * libraries differ; ioredis is detected by the library (no useRedisPackage).
 */
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RedisClient } from "../../lib/redis/connect";
import { runCase, type BenchContext } from "./context";
import { CONCURRENCIES, sluiceClient } from "./limiterCases";
import { KEY_IDS, SUBJECT_COUNT } from "./workload";
import type { Outcome } from "./types";

export function rlfLimiter(redis: RedisClient, keyPrefix: string, points: number, duration: number): RateLimiterRedis {
  return new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration });
}

/** `consume` resolves when admitted and rejects with a RateLimiterRes when limited (a refusal, not an error). */
export function consumeOp(
  limiter: RateLimiterRedis,
  keyAt: (seq: number) => string,
): (seq: number) => Promise<Outcome> {
  return async (seq) => {
    try {
      await limiter.consume(keyAt(seq));
      return "ok";
    } catch (error) {
      return error instanceof RateLimiterRes ? "refused" : "error";
    }
  };
}

const roundRobinKey = (seq: number): string => KEY_IDS[seq % SUBJECT_COUNT]!;

export async function rlfCases(ctx: BenchContext): Promise<void> {
  for (const autoPipelining of [false, true]) {
    const redis = sluiceClient(ctx, autoPipelining);
    try {
      await redis.ping();
      const limiter = rlfLimiter(redis, `${ctx.prefix}rlf${autoPipelining ? "ap" : ""}`, 1e9, 60);
      const concurrencies = autoPipelining ? [256] : CONCURRENCIES;
      for (const concurrency of concurrencies) {
        const name = autoPipelining ? "consume-autopipelining-on" : "consume";
        await runCase(
          ctx,
          { subject: "rate-limiter-flexible", case: name, concurrency, note: "points 1e9 per 60 s" },
          consumeOp(limiter, roundRobinKey),
        );
      }
    } finally {
      await redis.quit();
    }
  }
}

export async function incrCeilingCase(ctx: BenchContext): Promise<void> {
  const redis = sluiceClient(ctx, true);
  const keys = KEY_IDS.map((id) => `${ctx.prefix}incr:${id}`);
  try {
    await redis.ping();
    await runCase(ctx, { subject: "ioredis", case: "incr-autopipelined", concurrency: 256 }, async (seq) => {
      await redis.incr(keys[seq % SUBJECT_COUNT]!);
      return "ok";
    });
  } finally {
    await redis.quit();
  }
}
