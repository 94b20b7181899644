/**
 * Runs one Redis operation under a hard deadline.
 *
 * - While the connection is known to be down (ioredis is reconnecting, or was closed), rejects at
 *   once: no request waits on an outage that is already known.
 * - Otherwise rejects once Redis has been late by `timeoutMs`, even if ioredis has not given up yet.
 *   The deadline measures Redis's lateness, not this process's: when the timer fires, it first
 *   yields to this event-loop turn's I/O (setImmediate), so a reply already waiting in the socket is
 *   read and wins; and if the timer itself fired late (the process was starved of CPU, blocked by
 *   GC or a long task), the deadline is extended once by that lag (at most `timeoutMs` more), the
 *   time Redis's answer could not have been read. A caller waits at most 2 x `timeoutMs` plus the
 *   event-loop lag (issue 15, point 14: a loaded machine turned a fast Redis into fail-open answers).
 * - When the connection has answered nothing for SILENT_RECONNECT_MS (every operation meanwhile
 *   timed out) while it still counts as up, drops it and reconnects. A link cut without a FIN or RST
 *   (a partition, a failover behind a virtual IP) leaves the socket open forever and ioredis
 *   "ready": without this, every decision would fail over until the process restarts, and each
 *   would leave a command waiting in ioredis's queue (lib/redis/silentConnection.int.test.ts).
 * Rejections are `LimiterUnavailableError`, carrying the original error as `cause`.
 */
import { LimiterUnavailableError } from "./unavailableError";
import type { RedisClient } from "./connect";
import { logOutage } from "../config/plane";

const DOWN_STATES = new Set(["reconnecting", "close", "end", "disconnecting"]);

/** Event-loop lag (ms) the deadline's timer may fire late by before the deadline is extended. */
export const LAG_TOLERANCE_MS = 10;

/** Silence (only timeouts, no answer) after which a connection that looks up is replaced. */
export const SILENT_RECONNECT_MS = 5_000;

/** Per client: since when every operation has timed out (absent: the last one was answered). */
const silentSince = new WeakMap<RedisClient, number>();

function answered(redis: RedisClient): void {
  silentSince.delete(redis);
}

/** As lib/redis/connect.ts labels its outage lines: `host:port (part)`. */
function label(redis: RedisClient): string {
  const options = redis.options as {
    host?: string;
    port?: number;
    connectionName?: string;
    redisOptions?: { connectionName?: string };
  };
  const part = (options.connectionName ?? options.redisOptions?.connectionName ?? "").replace(/^sluice-/, "");
  const where = options.host ? `${options.host}:${options.port}` : "cluster";
  return part ? `${where} (${part})` : where;
}

function timedOut(redis: RedisClient, startedAt: number): void {
  const since = silentSince.get(redis);
  if (since === undefined) {
    silentSince.set(redis, startedAt);
    return;
  }
  if (Date.now() - since < SILENT_RECONNECT_MS || isKnownDown(redis)) return;
  silentSince.delete(redis);
  const name = label(redis);
  logOutage(`[sluice] redis ${name} answered nothing for ${Math.round((Date.now() - since) / 1000)} s; reconnecting`);
  redis.once("ready", () => logOutage(`[sluice] redis ${name} is back`));
  // Flushes the commands waiting on the dead socket (they reject) and reconnects by the retry strategy.
  redis.disconnect(true);
}

export function isKnownDown(redis: RedisClient): boolean {
  return DOWN_STATES.has(redis.status);
}

/** One operation under its deadline. */
interface Pending {
  /** When its deadline falls (Date.now() ms). */
  due: number;
  timeoutMs: number;
  /** Settled, or its deadline handled by the timer: no longer the queue's. */
  settled: boolean;
  /** Settled (answered, failed or rejected by its deadline). */
  done: boolean;
  /** Rejected by its deadline (not by the operation). */
  expired: boolean;
  reject: (error: LimiterUnavailableError) => void;
}

/**
 * The operations of one client and timeout length, oldest first: their deadlines fall in the order
 * they started, so ONE timer, armed for the oldest still pending, serves them all. A timer per
 * operation (armed and cleared on every call) cost a sequential decision more than the rest of
 * this function. The timer is left to fire when its operation settles first (it then re-arms for
 * the next one, if any): most operations settle long before their deadline.
 */
interface Queue {
  items: Pending[];
  /** Index of the first item not yet settled or expired (the ones before are done). */
  head: number;
  timer: NodeJS.Timeout | undefined;
  /** When `timer` fires (ms). */
  timerDue: number;
}

const queues = new WeakMap<RedisClient, Map<number, Queue>>();

function queueOf(redis: RedisClient, timeoutMs: number): Queue {
  let byTimeout = queues.get(redis);
  if (!byTimeout) {
    byTimeout = new Map();
    queues.set(redis, byTimeout);
  }
  let queue = byTimeout.get(timeoutMs);
  if (!queue) {
    queue = { items: [], head: 0, timer: undefined, timerDue: 0 };
    byTimeout.set(timeoutMs, queue);
  }
  return queue;
}

/** Drops the settled items at the head (operations settle mostly in the order they started). */
function trim(queue: Queue): void {
  const { items } = queue;
  while (queue.head < items.length && items[queue.head]!.settled) queue.head++;
  if (queue.head === items.length) {
    items.length = 0;
    queue.head = 0;
  } else if (queue.head > 1024 && 2 * queue.head > items.length) {
    queue.items = items.slice(queue.head);
    queue.head = 0;
  }
}

/** Arms the timer for the oldest pending operation, unless it is armed to fire before that one's deadline. */
function arm(queue: Queue): void {
  trim(queue);
  const { items } = queue;
  if (queue.head === items.length) return;
  const due = items[queue.head]!.due;
  if (queue.timer !== undefined && queue.timerDue <= due) return;
  if (queue.timer !== undefined) clearTimeout(queue.timer);
  queue.timerDue = due;
  queue.timer = setTimeout(fire, Math.max(0, due - Date.now()), queue);
  // Only pending operations need it, and their connection keeps the process alive meanwhile.
  queue.timer.unref?.();
}

function fire(queue: Queue): void {
  queue.timer = undefined;
  const now = Date.now();
  const due: Pending[] = [];
  const { items } = queue;
  for (; queue.head < items.length; queue.head++) {
    const pending = items[queue.head]!;
    if (pending.settled) continue;
    if (pending.due > now) break;
    pending.settled = true; // in the queue's eyes: its expiry is handled below
    due.push(pending);
  }
  arm(queue);
  if (due.length > 0) {
    // After this turn's poll phase: a reply that arrived meanwhile has settled the race by then.
    setImmediate(() => {
      for (const pending of due) expire(pending, now - pending.due, false);
    });
  }
}

/** The deadline of `pending` passed `lag` ms ago (0: on time); `extended`: it was extended already. */
function expire(pending: Pending, lag: number, extended: boolean): void {
  if (pending.done) return;
  if (!extended && lag > LAG_TOLERANCE_MS) {
    // The timer fired late (the process was starved): Redis's answer could not have been read
    // meanwhile, so it gets that time again, once. Rare: a timer of its own.
    const ms = Math.min(lag, pending.timeoutMs);
    const until = Date.now() + ms;
    setTimeout(() => setImmediate(() => expire(pending, Date.now() - until, true)), ms);
    return;
  }
  pending.expired = true;
  pending.reject(
    new LimiterUnavailableError(
      `redis did not answer within ${pending.timeoutMs} ms${extended ? " (after allowing for event-loop lag)" : ""}`,
      { kind: extended ? "timeout_after_lag" : "timeout" },
    ),
  );
}

export async function withDeadline<T>(redis: RedisClient, op: () => Promise<T>, timeoutMs: number): Promise<T> {
  if (isKnownDown(redis)) {
    throw new LimiterUnavailableError(`redis is ${redis.status}`, { kind: "down" });
  }
  const startedAt = Date.now();
  const pending: Pending = {
    due: startedAt + timeoutMs,
    timeoutMs,
    settled: false,
    done: false,
    expired: false,
    reject: noop,
  };
  const deadline = new Promise<never>((_, reject) => (pending.reject = reject));
  const queue = queueOf(redis, timeoutMs);
  queue.items.push(pending);
  if (queue.timer === undefined || queue.timerDue > pending.due) arm(queue);
  try {
    const result = await Promise.race([op(), deadline]);
    answered(redis);
    return result;
  } catch (error) {
    // Our deadline, or ioredis's commandTimeout (a backstop beyond it, lib/redis/connect.ts): silence.
    if (pending.expired || /timed out/i.test((error as Error).message)) timedOut(redis, startedAt);
    else answered(redis);
    if (error instanceof LimiterUnavailableError) throw error;
    const timedOutHere = /timed out/i.test((error as Error).message);
    throw new LimiterUnavailableError(`redis error: ${(error as Error).message}`, {
      cause: error,
      kind: timedOutHere ? "timeout" : "error",
    });
  } finally {
    pending.done = true;
    pending.settled = true;
    if (queue.items[queue.head] === pending) trim(queue);
  }
}

function noop(): void {}
