/**
 * A write cut off half-way (the writer killed, or its connection broken, while sending) against a
 * throwaway redis-server behind a proxy that forwards an exact number of bytes and then drops the
 * connection. A plain pipeline cut after its first command leaves that command applied without the
 * PEXPIRE that followed it: a key with no TTL, kept forever. An atomic one (MULTI/EXEC, what the
 * monitoring flush uses) cut just before EXEC, every write already sent, leaves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultyProxy, type FaultyProxy } from "@/test/support/faultyProxy";
import { startRedisServer, withRedis, type RedisServerHandle } from "@/test/support/redisServer";
import { createRedisClient, type RedisClient } from "../../redis/connect";
import { runPipelines, type Command } from "./monitoringPipeline";

let server: RedisServerHandle;
let proxy: FaultyProxy;
let redis: RedisClient;

beforeAll(async () => {
  server = await startRedisServer();
  proxy = await startFaultyProxy(server.port);
  redis = createRedisClient({ url: proxy.url, cluster: false, timeoutMs: 2_000, autoPipelining: false });
});

afterAll(async () => {
  redis.disconnect();
  await proxy.close();
  await server.stop();
});

/** A command as RESP puts it on the wire. */
function resp(command: (string | number)[]): string {
  return (
    `*${command.length}\r\n` + command.map((part) => `$${Buffer.byteLength(String(part))}\r\n${part}\r\n`).join("")
  );
}

describe("a write cut off half-way", () => {
  const writes = (key: string): Command[] => [
    ["HINCRBY", key, "f", 1],
    ["PEXPIRE", key, 60_000],
  ];
  const stateOf = (key: string) =>
    withRedis(server.port, async (direct) => ({
      exists: await direct.exists(key),
      ttl: await direct.pttl(key),
      stats: await direct.info("commandstats"),
    }));

  it("a plain pipeline cut after its first command leaves a key without a TTL", async () => {
    const commands = writes("cut:plain");
    await redis.ping();
    proxy.cutAfter(Buffer.byteLength(resp(commands[0]!)));
    await expect(runPipelines(redis, new Map([["g", commands]]), 2_000)).rejects.toThrow();
    const state = await stateOf("cut:plain");
    expect(state).toMatchObject({ exists: 1, ttl: -1 });
  });

  it("MULTI/EXEC cut just before EXEC applies nothing", async () => {
    const commands = writes("cut:atomic");
    await redis.ping();
    proxy.cutAfter(Buffer.byteLength(resp(["MULTI"]) + commands.map(resp).join("")));
    await expect(runPipelines(redis, new Map([["g", commands]]), 2_000, { atomic: true })).rejects.toThrow();
    const state = await stateOf("cut:atomic");
    // The transaction reached Redis whole but for its EXEC.
    expect(state.stats).toMatch(/^cmdstat_multi:calls=1,/m);
    expect(state.stats).not.toMatch(/^cmdstat_exec:/m);
    expect(state.exists).toBe(0);
  });
});
