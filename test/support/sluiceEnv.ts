/**
 * What HTTP tests need around a Sluice server (test/support/sluiceServer.ts):
 * - `sluiceEnv(label, extra)`: the server environment: the test database, the shared Redis under a
 *   prefix unique to this run (`prefix`), an admin token; `cleanupRedis(prefix)` deletes exactly
 *   the keys under that prefix (never FLUSH: the Redis is shared);
 * - `TEST_DATABASE_URL`: DATABASE_URL, or the local `sluice_test` database; anything that is not on
 *   the loopback is refused, so a test run can never touch a real database;
 * - `awayFromWindowEdge(windowMs, neededMs)`: waits, when fewer than `neededMs` remain in the
 *   current epoch-aligned window, until the next one starts, so a test of a fixed or sliding window
 *   runs inside one window;
 * - `waitUntil(check, timeoutMs)`: polls every 50 ms;
 * - `msUntil(since, check, giveUpMs)`: polls every 50 ms and resolves with the ms from `since`
 *   (a `performance.now()`) until `check` first held, so a test can assert how long a change took.
 */
import { randomBytes } from "node:crypto";
import { deleteByPrefix, plainRedis, REDIS_URL, uniquePrefix } from "./testRedis";

export const TEST_DATABASE_URL = process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/sluice_test";

const host = new URL(TEST_DATABASE_URL).hostname;
if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
  throw new Error(`HTTP tests run only against a local database; DATABASE_URL names ${host}`);
}

export interface SluiceTestEnv {
  env: Record<string, string>;
  prefix: string;
  adminToken: string;
}

export function sluiceEnv(label: string, extra: Record<string, string> = {}): SluiceTestEnv {
  const prefix = uniquePrefix(label);
  const adminToken = `test-admin-${randomBytes(12).toString("hex")}`;
  return {
    prefix,
    adminToken,
    env: {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL,
      SLUICE_REDIS_PREFIX: prefix,
      SLUICE_ADMIN_TOKEN: adminToken,
      ...extra,
    },
  };
}

export async function cleanupRedis(prefix: string): Promise<void> {
  const redis = plainRedis();
  try {
    await redis.connect();
    await deleteByPrefix(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function awayFromWindowEdge(windowMs: number, neededMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await sleep(left + 50);
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await sleep(50);
  }
}

export async function msUntil(since: number, check: () => Promise<boolean>, giveUpMs: number): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - since;
    if (performance.now() - since > giveUpMs) throw new Error(`never happened (waited ${giveUpMs} ms)`);
    await sleep(50);
  }
}
