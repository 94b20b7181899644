/**
 * The shared local Redis for integration tests, used only under a prefix unique to the test run;
 * `deleteByPrefix` removes exactly what that prefix covers (never FLUSHDB).
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

export function uniquePrefix(label: string): string {
  return `sluicetest:${label}:${randomBytes(4).toString("hex")}:`;
}

export function plainRedis(url = REDIS_URL): Redis {
  return new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
}

export async function keysByPrefix(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== "0");
  return found;
}

export async function deleteByPrefix(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysByPrefix(redis, prefix);
  for (let i = 0; i < keys.length; i += 500) await redis.unlink(...keys.slice(i, i + 500));
}
