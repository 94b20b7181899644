/**
 * Runs one Redis operation under a hard deadline.
 *
 * - While the connection is known to be down (ioredis is reconnecting, or was closed), rejects at
 *   once: no request waits on an outage that is already known.
 * - Otherwise rejects after `timeoutMs` even if ioredis has not given up yet, so a caller never
 *   waits longer than the timeout plus timer jitter.
 * Rejections are `LimiterUnavailableError`, carrying the original error as `cause`.
 */
import { LimiterUnavailableError } from "../limiter/types";
import type { RedisClient } from "./connect";

const DOWN_STATES = new Set(["reconnecting", "close", "end", "disconnecting"]);

export function isKnownDown(redis: RedisClient): boolean {
  return DOWN_STATES.has(redis.status);
}

export async function withDeadline<T>(redis: RedisClient, op: () => Promise<T>, timeoutMs: number): Promise<T> {
  if (isKnownDown(redis)) {
    throw new LimiterUnavailableError(`redis is ${redis.status}`);
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LimiterUnavailableError(`redis did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([op(), deadline]);
  } catch (error) {
    if (error instanceof LimiterUnavailableError) throw error;
    throw new LimiterUnavailableError(`redis error: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
