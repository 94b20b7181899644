/**
 * The change subscription against a throwaway redis-server that is down when the subscription is
 * made (an instance starting during a Redis outage) and comes up later: change notices must reach
 * the instance once Redis answers, not only the periodic full refresh 15 s later.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRedisServer, withRedis, type RedisServerHandle } from "@/test/support/redisServer";
import { createRedisClient, type RedisClient } from "../../redis/connect";
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
  let subscribedTimes = 0;
  const subscription = subscribeChanges(redis, PREFIX, {
    onChange: (id) => received.push(id),
    onSubscribed: () => subscribedTimes++,
  });
  const publish = (id: string) => withRedis(server.port, (direct) => direct.publish(changesChannel(PREFIX), id));
  try {
    // Several reconnect attempts fail first; nothing can have subscribed yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(subscribedTimes).toBe(0);
    await server.restart();
    // Publish until the first notice arrives (the SUBSCRIBE lands some time after the restart).
    const published: string[] = [];
    const upAt = performance.now();
    while (received.length === 0 && performance.now() - upAt < 5_000) {
      published.push(`t${published.length}`);
      await publish(published.at(-1)!);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(received.length, "no change notice within 5 s of Redis coming up").toBeGreaterThan(0);
    expect(received.every((id) => published.includes(id))).toBe(true);
    // One (re)connection since Redis came up, and so one "reload everything" for the caller.
    expect(subscribedTimes).toBe(1);
    // The subscription is now live: exactly one subscriber gets the next change, exactly once, in
    // order. Pub/sub delivers one connection's messages in the order published, so once "marker"
    // (published after "after") has arrived, any second delivery of "after" would have too: the
    // wait cannot end before a duplicate could show.
    expect(await publish("after")).toBe(1);
    expect(await publish("marker")).toBe(1);
    const sentAt = performance.now();
    while (!received.includes("marker") && performance.now() - sentAt < 2_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // (A late copy of a polling notice "t<n>" may still arrive in between: those are not counted.)
    expect(received.filter((id) => !published.includes(id))).toEqual(["after", "marker"]);
  } finally {
    await subscription.close();
  }
});
