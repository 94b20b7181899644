/**
 * The process's Redis client (single node, Cluster or Sentinel, from `config()`), created on first use.
 * `pingRedis` is the health probe: it rejects when Redis is down or slower than the timeout.
 */
import { config } from "../config";
import { createRedisClient, type RedisClient } from "./connect";
import { withDeadline } from "./deadline";

const globalForRedis = globalThis as unknown as { sluiceRedis?: RedisClient };

export function getRedis(): RedisClient {
  if (!globalForRedis.sluiceRedis) {
    const c = config();
    globalForRedis.sluiceRedis = createRedisClient({
      url: c.redisUrl,
      cluster: c.redisCluster,
      timeoutMs: c.redisTimeoutMs,
      autoPipelining: c.redisAutoPipelining,
      sentinel: c.redisSentinel,
    });
  }
  return globalForRedis.sluiceRedis;
}

export async function pingRedis(timeoutMs = Math.max(config().redisTimeoutMs, 500)): Promise<void> {
  const redis = getRedis();
  await withDeadline(redis, () => redis.ping(), timeoutMs);
}
