/**
 * The single redis-server test harness itself: a server on a free 127.0.0.1 port that answers PING,
 * can be paused, killed (connections refused) and restarted on the same port, and closes it on stop().
 */
import { connect } from "node:net";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { isPortListening } from "./freePort";
import { startRedisServer, type RedisServerHandle } from "./redisServer";

const started: RedisServerHandle[] = [];
afterAll(async () => {
  await Promise.all(started.map((handle) => handle.stop()));
});

async function server(): Promise<RedisServerHandle> {
  const handle = await startRedisServer();
  started.push(handle);
  return handle;
}

/** PINGs once on a fresh connection that does not retry. */
async function pingOnce(port: number): Promise<string> {
  const redis = new Redis({
    host: "127.0.0.1",
    port,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return await redis.ping();
  } finally {
    redis.disconnect();
  }
}

/** The error code of a plain TCP connect to 127.0.0.1:port, or "connected". */
function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (outcome: string) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.once("connect", () => done("connected"));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

describe("startRedisServer", () => {
  it("answers PING, refuses connections once killed, answers again after restart on the same port", async () => {
    const redis = await server();
    expect(redis.port).not.toBe(6379);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await pingOnce(redis.port)).toBe("PONG");

    await redis.kill();
    expect(redis.isStopped()).toBe(true);
    expect(await connectOutcome(redis.port)).toBe("ECONNREFUSED");

    await redis.restart();
    expect(redis.isStopped()).toBe(false);
    expect(await pingOnce(redis.port)).toBe("PONG");

    await redis.stop();
    await redis.stop();
    expect(await isPortListening(redis.port)).toBe(false);
  });

  it("pause(ms) holds other clients' commands until the pause ends", async () => {
    const redis = await server();
    await redis.pause(400);
    const sentAt = performance.now();
    expect(await pingOnce(redis.port)).toBe("PONG");
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(300);
  });
});
