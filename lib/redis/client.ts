/**
 * The process's Redis client (single node, Cluster or Sentinel, from `config()`), created on first use.
 * `configuredRedisClient(name, timeoutMs)` makes another connection to the same Redis, for a part
 * that must not queue behind the limiter or needs a longer deadline (monitoring, the simulator).
 * `pingRedis` is the health probe: it rejects when Redis is down or slower than the timeout.
 */
import "server-only";
import { config } from "../config/config";
import { backstopCommandTimeoutMs, createRedisClient, type RedisClient } from "./connect";
import { withDeadline } from "./deadline";

const globalForRedis = globalThis as unknown as { sluiceRedis?: RedisClient };

/** A connection to the configured Redis, named `sluice-<name>`; auto-pipelining off unless asked. */
export function configuredRedisClient(
  name: string,
  timeoutMs: number,
  autoPipelining = false,
  commandTimeoutMs?: number,
): RedisClient {
  const c = config();
  return createRedisClient({
    url: c.redisUrl,
    cluster: c.redisCluster,
    sentinel: c.redisSentinel,
    tls: c.redisTls,
    timeoutMs,
    commandTimeoutMs,
    autoPipelining,
    name,
  });
}

export function getRedis(): RedisClient {
  if (!globalForRedis.sluiceRedis) {
    const c = config();
    // Every command of this connection runs under withDeadline, which allows for event-loop lag.
    globalForRedis.sluiceRedis = configuredRedisClient(
      "limiter",
      c.redisTimeoutMs,
      c.redisAutoPipelining,
      backstopCommandTimeoutMs(c.redisTimeoutMs),
    );
  }
  return globalForRedis.sluiceRedis;
}

export async function pingRedis(timeoutMs = Math.max(config().redisTimeoutMs, 500)): Promise<void> {
  const redis = getRedis();
  await withDeadline(redis, () => redis.ping(), timeoutMs);
}
