/**
 * Finds and deletes the keys under one prefix with SCAN (never KEYS, never FLUSHDB), so tests,
 * benchmarks and maintenance remove exactly what they own. Single-node clients only.
 */
import type { Redis } from "ioredis";

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

/** Deletes exactly the keys starting with `prefix`; returns how many there were. */
export async function deleteByPrefix(redis: Redis, prefix: string): Promise<number> {
  const keys = await keysByPrefix(redis, prefix);
  for (let i = 0; i < keys.length; i += 500) await redis.unlink(...keys.slice(i, i + 500));
  return keys.length;
}
