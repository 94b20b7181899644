/**
 * Runs lua/release.lua (gives a request's concurrency slots back; as every script: lua/luaScript.ts),
 * within the limiter's deadline. Also mints lease ids.
 *
 * A lease id is this process's random prefix and a counter in base 36: unique across instances
 * (48 random bits per process) without a Redis round trip, and short (it is a sorted-set member).
 */
import { randomBytes } from "node:crypto";
import type { RedisClient } from "../redis/connect";
import { withDeadline } from "../redis/deadline";
import { luaScript } from "./lua/luaScript";
import type { Lease } from "./types";

export const releaseScript = luaScript("release.lua", "sluiceRelease");

const processPrefix = randomBytes(6).toString("base64url");
let counter = 0;

/** A lease id no other request of any instance holds. */
export function newLeaseId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return processPrefix + counter.toString(36);
}

/**
 * How many of the lease's keys held it unexpired (given back now). `nowMs`: explicit time (tests),
 * else Redis TIME. Throws when Redis cannot answer in time.
 */
export async function runReleaseScript(
  redis: RedisClient,
  lease: Lease,
  timeoutMs: number,
  nowMs?: number,
): Promise<number> {
  const reply = await withDeadline(
    redis,
    () => releaseScript.run(redis, lease.keys.length, lease.keys, lease.id, nowMs === undefined ? "" : String(nowMs)),
    timeoutMs,
  );
  if (typeof reply !== "number") throw new Error(`release reply: expected a number, got ${typeof reply}`);
  return reply;
}
