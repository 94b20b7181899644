/**
 * The change subscription against a throwaway redis-server that is down when the subscription is
 * made (an instance starting during a Redis outage) and comes up later: change notices must reach
 * the instance once Redis answers, not only the periodic full refresh 15 s later.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRedisServer, withRedis, type RedisServerHandle } from "@/test/support/redisServer";
import { createRedisClient, type RedisClient } from "../redis/connect";
import { changesChannel, subscribeChanges } from "./changeBus";

const PREFIX = "bus:";
let server: RedisServerHandle;
let redis: RedisClient;

beforeAll(async () => {
  server = await startRedisServer();
  redis = createRedisClient({ url: server.url, cluster: false, timeoutMs: 100, autoPipelining: false });
});

afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

it("a subscription made while Redis is down receives changes once Redis is up", async () => {
  await server.kill();
  const received: string[] = [];
  const subscription = subscribeChanges(redis, PREFIX, { onChange: (id) => received.push(id), onSubscribed: () => undefined });
  try {
    // Several reconnect attempts fail first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await server.restart();
    const upAt = performance.now();
    while (!received.includes("t1")) {
      if (performance.now() - upAt > 5_000) throw new Error("no change notice within 5 s of Redis coming up");
      await withRedis(server.port, (direct) => direct.publish(changesChannel(PREFIX), "t1"));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(received).toContain("t1");
  } finally {
    await subscription.close();
  }
});
