import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LimiterUnavailableError } from "./unavailableError";
import type { RedisClient } from "./connect";
import { SILENT_RECONNECT_MS, withDeadline } from "./deadline";

const TIMEOUT_MS = 100;

/** Just what withDeadline touches of an ioredis client. */
function fakeRedis(status = "ready") {
  const client = {
    status,
    options: { host: "127.0.0.1", port: 6379, connectionName: "sluice-limiter" },
    disconnect: vi.fn(),
    once: vi.fn(),
  };
  return client as typeof client & RedisClient;
}

const never = () => new Promise<never>(() => undefined);

/** One operation that Redis never answers; resolves once it has timed out. */
async function silentOp(redis: RedisClient): Promise<void> {
  const op = withDeadline(redis, never, TIMEOUT_MS);
  const done = expect(op).rejects.toBeInstanceOf(LimiterUnavailableError);
  // +1: the deadline yields once to I/O (setImmediate) before it declares the timeout.
  await vi.advanceTimersByTimeAsync(TIMEOUT_MS + 1);
  await done;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("withDeadline", () => {
  it("rejects at the deadline an operation Redis does not answer", async () => {
    await silentOp(fakeRedis());
  });

  it("rejects at once while the connection is known to be down", async () => {
    await expect(withDeadline(fakeRedis("reconnecting"), never, TIMEOUT_MS)).rejects.toThrow(/reconnecting/);
  });

  it("replaces a connection that has answered nothing for SILENT_RECONNECT_MS, once", async () => {
    const redis = fakeRedis();
    const started = Date.now();
    while (Date.now() - started < SILENT_RECONNECT_MS - TIMEOUT_MS) await silentOp(redis);
    expect(redis.disconnect).not.toHaveBeenCalled();
    await silentOp(redis);
    await silentOp(redis);
    expect(redis.disconnect).toHaveBeenCalledExactlyOnceWith(true);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining("127.0.0.1:6379 (limiter) answered nothing"));
  });

  it("keeps a connection that answers now and then, however slow", async () => {
    const redis = fakeRedis();
    const started = Date.now();
    while (Date.now() - started < 3 * SILENT_RECONNECT_MS) {
      for (let i = 0; i < 10; i++) await silentOp(redis);
      await withDeadline(redis, async () => "OK", TIMEOUT_MS);
    }
    expect(redis.disconnect).not.toHaveBeenCalled();
  });

  it("counts an error that is not a timeout as an answer", async () => {
    const redis = fakeRedis();
    const started = Date.now();
    while (Date.now() - started < 2 * SILENT_RECONNECT_MS) {
      await silentOp(redis);
      await expect(withDeadline(redis, () => Promise.reject(new Error("NOSCRIPT")), TIMEOUT_MS)).rejects.toThrow(
        /NOSCRIPT/,
      );
    }
    expect(redis.disconnect).not.toHaveBeenCalled();
  });

  it("a timer that fires late (the process was starved) extends the deadline once by the lag: a reply meanwhile wins", async () => {
    const redis = fakeRedis();
    let answer!: (value: string) => void;
    const op = withDeadline(redis, () => new Promise<string>((resolve) => (answer = resolve)), TIMEOUT_MS);
    // The process was descheduled for 150 ms: the clock moves on, no timer could run.
    vi.setSystemTime(Date.now() + TIMEOUT_MS + 50);
    await vi.advanceTimersByTimeAsync(1); // the timer fires 51 ms late
    await vi.advanceTimersByTimeAsync(30); // inside the extension
    answer("PONG");
    await expect(op).resolves.toBe("PONG");
  });

  it("extends only once: Redis that stays silent still times out (after at most 2 x the timeout)", async () => {
    const redis = fakeRedis();
    const op = withDeadline(redis, never, TIMEOUT_MS);
    const done = expect(op).rejects.toThrow(/after allowing for event-loop lag/);
    vi.setSystemTime(Date.now() + 10 * TIMEOUT_MS);
    await vi.advanceTimersByTimeAsync(2 * TIMEOUT_MS + 2);
    await done;
  });

  it("no lag, no extension: rejects at the deadline", async () => {
    const redis = fakeRedis();
    let settledAt = 0;
    const started = Date.now();
    const op = withDeadline(redis, never, TIMEOUT_MS).catch(() => (settledAt = Date.now()));
    await vi.advanceTimersByTimeAsync(2 * TIMEOUT_MS);
    await op;
    // The fake setImmediate runs 1 ms later.
    expect(settledAt - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(settledAt - started).toBeLessThanOrEqual(TIMEOUT_MS + 1);
  });
});
