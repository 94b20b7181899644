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
  console.warn(
    `[sluice] redis ${name} answered nothing for ${Math.round((Date.now() - since) / 1000)} s; reconnecting`,
  );
  redis.once("ready", () => console.warn(`[sluice] redis ${name} is back`));
  // Flushes the commands waiting on the dead socket (they reject) and reconnects by the retry strategy.
  redis.disconnect(true);
}

export function isKnownDown(redis: RedisClient): boolean {
  return DOWN_STATES.has(redis.status);
}

export async function withDeadline<T>(redis: RedisClient, op: () => Promise<T>, timeoutMs: number): Promise<T> {
  if (isKnownDown(redis)) {
    throw new LimiterUnavailableError(`redis is ${redis.status}`, { kind: "down" });
  }
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let expired = false;
  let settled = false;
  const startedAt = Date.now();
  const deadline = new Promise<never>((_, reject) => {
    const arm = (ms: number, extended: boolean) => {
      const due = Date.now() + ms;
      timer = setTimeout(() => {
        const lag = Date.now() - due;
        // After this turn's poll phase: a reply that arrived meanwhile has settled the race by then.
        immediate = setImmediate(() => {
          if (settled) return;
          if (!extended && lag > LAG_TOLERANCE_MS) {
            arm(Math.min(lag, timeoutMs), true);
            return;
          }
          expired = true;
          reject(
            new LimiterUnavailableError(
              `redis did not answer within ${timeoutMs} ms${extended ? " (after allowing for event-loop lag)" : ""}`,
              {
                kind: extended ? "timeout_after_lag" : "timeout",
              },
            ),
          );
        });
      }, ms);
    };
    arm(timeoutMs, false);
  });
  try {
    const result = await Promise.race([op(), deadline]);
    answered(redis);
    return result;
  } catch (error) {
    // Our deadline, or ioredis's commandTimeout (a backstop beyond it, lib/redis/connect.ts): silence.
    if (expired || /timed out/i.test((error as Error).message)) timedOut(redis, startedAt);
    else answered(redis);
    if (error instanceof LimiterUnavailableError) throw error;
    const timedOutHere = /timed out/i.test((error as Error).message);
    throw new LimiterUnavailableError(`redis error: ${(error as Error).message}`, {
      cause: error,
      kind: timedOutHere ? "timeout" : "error",
    });
  } finally {
    settled = true;
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  }
}
