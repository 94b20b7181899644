/**
 * The decision deadline measures Redis's lateness, not this process's (lib/redis/deadline.ts):
 * against the shared Redis (this test's prefix), the event loop is blocked (as on a CPU-starved
 * machine, or during GC) right after a command was sent, for longer than the timeout. Redis answers
 * in a millisecond meanwhile; its reply waits in the socket. Before the fix the timer fired first
 * and the decision fell into its fail mode (fail_open: an over-admission); now the reply is read and
 * the decision is Redis's.
 */
import { afterAll, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createRedisClient } from "../redis/connect";
import { withDeadline } from "../redis/deadline";
import { REDIS_URL } from "@/test/support/testRedis";
import { createLimiter } from "./decide";
import type { LimiterUnavailableError } from "./types";

const TIMEOUT_MS = 100;
// Long enough for Redis to answer meanwhile even on a loaded CI machine, and well short of
// ioredis's backstop (550 ms, below): on a starved machine the loop may get the CPU back tens of ms
// after the block ends, and once the backstop is due its timer runs before the socket is read
// (a block of 500 ms failed 1 run in 3 at load 9.7).
const BLOCK_MS = 3 * TIMEOUT_MS;
const prefix = uniquePrefix("lag");
const cleanup = plainRedis();
// As the limiter's connection is made (lib/redis/client.ts): the deadline decides, ioredis's timer is a backstop.
const redis = createRedisClient({
  url: REDIS_URL,
  cluster: false,
  timeoutMs: TIMEOUT_MS,
  commandTimeoutMs: 3 * TIMEOUT_MS + 250,
  autoPipelining: false,
});

afterAll(async () => {
  await deleteByPrefix(cleanup, prefix);
  cleanup.disconnect();
  redis.disconnect();
});

/** Keeps this thread busy: nothing else (timers, socket reads) runs meanwhile. */
function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

it("withDeadline: a reply that arrived while the event loop was blocked wins over the overdue timer", async () => {
  await redis.ping(); // connected (ioredis's backstop timeout is 550 ms here)
  for (let i = 0; i < 5; i++) {
    const op = withDeadline(redis, () => redis.ping(), TIMEOUT_MS); // PING is written now
    blockEventLoop(BLOCK_MS);
    await expect(op).resolves.toBe("PONG");
  }
});

it("decide: a loop blocked past the timeout does not turn Redis's answer into a fail-mode one", async () => {
  const unavailable: LimiterUnavailableError[] = [];
  const limiter = createLimiter({
    redis,
    prefix,
    timeoutMs: TIMEOUT_MS,
    onUnavailable: (error) => unavailable.push(error),
  });
  const rule = limiterRule({ algorithm: "sliding_log", limit: 3, windowMs: 60_000 });
  const subject = { tenantId: "lag", keyId: "k" };
  // Script loaded, connection warm (retried: on a loaded machine a cold first call may miss 100 ms).
  for (let attempt = 0; ; attempt++) {
    try {
      await limiter.peek([rule], subject);
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
  const sources: string[] = [];
  const admitted: boolean[] = [];
  for (let i = 0; i < 5; i++) {
    const decision = limiter.decide([rule], subject);
    await nextTurn(); // the batch is flushed: the script call is on the wire
    blockEventLoop(BLOCK_MS);
    const d = await decision;
    sources.push(d.results[0]!.source);
    admitted.push(d.allowed);
  }
  expect(unavailable).toEqual([]);
  expect(sources).toEqual(["redis", "redis", "redis", "redis", "redis"]);
  expect(admitted).toEqual([true, true, true, false, false]);
});
