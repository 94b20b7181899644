/**
 * The shared local Redis for integration tests, used only under a prefix unique to the test run;
 * `deleteByPrefix` (lib/redis/keysByPrefix.ts) removes exactly what that prefix covers.
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

export { deleteByPrefix, keysByPrefix } from "@/lib/redis/keysByPrefix";
