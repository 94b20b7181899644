/**
 * Runs lua/release.lua (gives a request's concurrency slots back) through ioredis `defineCommand`
 * (EVALSHA, falling back to EVAL on NOSCRIPT), within the limiter's deadline. Also mints lease ids.
 *
 * A lease id is this process's random prefix and a counter in base 36: unique across instances
 * (48 random bits per process) without a Redis round trip, and short (it is a sorted-set member).
 */
import { randomBytes } from "node:crypto";
import type { RedisClient } from "../redis/connect";
import { withDeadline } from "../redis/deadline";
import { loadScript } from "./lua/loadScript";
import type { Lease } from "./types";

const COMMAND = "sluiceRelease";
let source: string | undefined;
const defined = new WeakSet<RedisClient>();
type WithRelease = { [COMMAND](numKeys: number, ...keysAndArgs: (string | string[])[]): Promise<unknown> };

const processPrefix = randomBytes(6).toString("base64url");
let counter = 0;

/** A lease id no other request of any instance holds. */
export function newLeaseId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return processPrefix + counter.toString(36);
}

export function releaseScriptSource(): string {
  source ??= loadScript("release.lua");
  return source;
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
  if (!defined.has(redis)) {
    redis.defineCommand(COMMAND, { lua: releaseScriptSource() });
    defined.add(redis);
  }
  const reply = await withDeadline(
    redis,
    () =>
      (redis as unknown as WithRelease)[COMMAND](
        lease.keys.length,
        lease.keys,
        lease.id,
        nowMs === undefined ? "" : String(nowMs),
      ),
    timeoutMs,
  );
  if (typeof reply !== "number") throw new Error(`release reply: expected a number, got ${typeof reply}`);
  return reply;
}
