import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LimiterUnavailableError } from "../limiter/types";
import type { RedisClient } from "./connect";
import { SILENT_RECONNECT_MS, withDeadline } from "./deadline";

const TIMEOUT_MS = 100;

/** Just what withDeadline touches of an ioredis client. */
function fakeRedis(status = "ready") {
  const client = { status, options: { host: "127.0.0.1", port: 6379, connectionName: "sluice-limiter" }, disconnect: vi.fn(), once: vi.fn() };
  return client as typeof client & RedisClient;
}

const never = () => new Promise<never>(() => undefined);

/** One operation that Redis never answers; resolves once it has timed out. */
async function silentOp(redis: RedisClient): Promise<void> {
  const op = withDeadline(redis, never, TIMEOUT_MS);
  const done = expect(op).rejects.toBeInstanceOf(LimiterUnavailableError);
  await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
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
      await expect(withDeadline(redis, () => Promise.reject(new Error("NOSCRIPT")), TIMEOUT_MS)).rejects.toThrow(/NOSCRIPT/);
    }
    expect(redis.disconnect).not.toHaveBeenCalled();
  });
});
