/**
 * A connection that goes silent: the link to Redis is cut without a FIN or RST (a partition, a
 * failover behind a virtual IP, a dropped NAT entry), through a proxy (test/support/faultyProxy.ts)
 * in front of a throwaway redis-server. TCP keeps the socket "open", so ioredis still thinks it is
 * ready: decisions must keep answering by fail mode within the timeout, and once the network is
 * back the limiter must get to Redis again, which only a new connection can do. Likewise the change
 * subscription, which only ever waits for messages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultyProxy, type FaultyProxy } from "@/test/support/faultyProxy";
import { startRedisServer, withRedis, type RedisServerHandle } from "@/test/support/redisServer";
import { changesChannel, subscribeChanges, SUBSCRIBER_PING_MS } from "../policy/changes/changeBus";
import { limiterRule } from "@/test/support/rules";
import { createLimiter, type Limiter } from "../limiter/decide";
import { createRedisClient, type RedisClient } from "./connect";
import { SILENT_RECONNECT_MS } from "./deadline";

const TIMEOUT_MS = 100;
/** The bound a decision must meet: the timeout plus scheduling slack on a loaded 2-core machine. */
const BOUND_MS = TIMEOUT_MS + 500;

let server: RedisServerHandle;
let proxy: FaultyProxy;
let redis: RedisClient;
let limiter: Limiter;

beforeAll(async () => {
  server = await startRedisServer();
  proxy = await startFaultyProxy(server.port);
  redis = createRedisClient({ url: proxy.url, cluster: false, timeoutMs: TIMEOUT_MS, autoPipelining: false });
  limiter = createLimiter({ redis, prefix: "silent:", timeoutMs: TIMEOUT_MS });
});

afterAll(async () => {
  redis.disconnect();
  await proxy.close();
  await server.stop();
});

const rule = limiterRule({ failMode: "open", limit: 1_000_000 });
const subject = { tenantId: "t", keyId: "k" };

async function decideTimed(): Promise<{ source: string; ms: number }> {
  const started = performance.now();
  const decision = await limiter.decide([rule], subject);
  return { source: decision.results[0]!.source, ms: performance.now() - started };
}

describe("a connection gone silent", () => {
  it("answers by fail mode within the timeout, then reconnects and decides in Redis again", async () => {
    const deadline = Date.now() + 10_000;
    while ((await decideTimed()).source !== "redis") {
      if (Date.now() > deadline) throw new Error("Redis never decided");
    }

    proxy.blackhole();
    const silentFrom = performance.now();
    // A while of silence, then the network is back for new connections only.
    const during: { source: string; ms: number }[] = [];
    while (performance.now() - silentFrom < 1_000) during.push(await decideTimed());
    proxy.heal();
    let back: number | null = null;
    while (performance.now() - silentFrom < SILENT_RECONNECT_MS + 5_000) {
      const d = await decideTimed();
      during.push(d);
      if (d.source === "redis") {
        back = performance.now() - silentFrom;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.info(
      `silent connection: ${during.length} decisions by fail mode, slowest ${Math.round(Math.max(...during.map((d) => d.ms)))} ms; back in Redis after ${back === null ? "never" : `${Math.round(back)} ms`}`,
    );
    expect(during.filter((d) => d.ms > BOUND_MS)).toEqual([]);
    expect(back).not.toBeNull();
    // And not just once: Redis decides from then on.
    for (let i = 0; i < 5; i++) expect((await decideTimed()).source).toBe("redis");
  });
});

describe("a change subscription gone silent", () => {
  it("notices, reconnects, resubscribes and receives changes again", async () => {
    proxy.heal();
    const received: string[] = [];
    let subscriptions = 0;
    const subscription = subscribeChanges(redis, "silent:", {
      onChange: (id) => received.push(id),
      onSubscribed: () => subscriptions++,
    });
    try {
      const publish = (id: string) => withRedis(server.port, (direct) => direct.publish(changesChannel("silent:"), id));
      const deadline = Date.now() + 10_000;
      while (!received.includes("before")) {
        if (Date.now() > deadline) throw new Error("the subscription never received a change");
        await publish("before");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      proxy.blackhole();
      const silentFrom = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      proxy.heal();
      const subscribedBefore = subscriptions;
      let back: number | null = null;
      while (performance.now() - silentFrom < SILENT_RECONNECT_MS + 2 * SUBSCRIBER_PING_MS + 5_000) {
        await publish("after");
        if (received.includes("after")) {
          back = performance.now() - silentFrom;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      console.info(`silent subscription: receiving again after ${back === null ? "never" : `${Math.round(back)} ms`}`);
      expect(back).not.toBeNull();
      // It subscribed anew, which makes the instance reload everything it may have missed.
      expect(subscriptions).toBeGreaterThan(subscribedBefore);
    } finally {
      await subscription.close();
    }
  });
});
