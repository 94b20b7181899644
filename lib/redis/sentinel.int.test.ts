/**
 * Sluice's Redis client through Redis Sentinel (1 master + 1 replica + 1 sentinel started by the
 * test on loopback ports): decisions are made on the master the sentinel names and are exact under
 * concurrency; when the master is killed, a `closed` rule refuses as unavailable meanwhile, the
 * same client follows the sentinel to the promoted replica, and the change subscription (a
 * duplicate of the client) delivers messages again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisSentinel, type RedisSentinelHandle } from "@/test/support/redisSentinel";
import { withRedis } from "@/test/support/redisServer";
import { limiterRule } from "@/test/support/rules";
import { subscribeChanges, publishChange, type ChangeSubscription } from "../policy/changes/changeBus";
import { createLimiter, type Limiter } from "../limiter/decide";
import { createRedisClient, type RedisClient } from "./connect";
import { keysByPrefix } from "./keysByPrefix";

const LIMIT = 5;
const RECOVERY_LIMIT_MS = 20_000;
let set: RedisSentinelHandle;
let redis: RedisClient;
let limiter: Limiter;
let subscription: ChangeSubscription | undefined;
const received: string[] = [];

beforeAll(async () => {
  set = await startRedisSentinel({ name: "sluice-test" });
  // REDIS_URL's host is not used with Sentinel (port 1 would refuse): only the sentinels are asked.
  redis = createRedisClient({
    url: "redis://127.0.0.1:1",
    cluster: false,
    timeoutMs: 1000,
    autoPipelining: false,
    sentinel: { sentinels: set.sentinels, name: set.name },
  });
  limiter = createLimiter({ redis, prefix: "st:", timeoutMs: 1000 });
  subscription = subscribeChanges(redis, "st:", {
    onChange: (tenantId) => received.push(tenantId),
    onSubscribed: () => undefined,
  });
});

afterAll(async () => {
  await subscription?.close();
  redis?.disconnect();
  await set?.stop();
});

const rule = limiterRule({
  name: "probe",
  algorithm: "sliding_log",
  limit: LIMIT,
  windowMs: 3_600_000,
  failMode: "closed",
});
let probes = 0;

/** 2 × limit concurrent decisions on a fresh key: how many were allowed, and whether any was unavailable. */
async function probe(): Promise<{ allowed: number; unavailable: boolean; keyId: string }> {
  const keyId = `k${probes++}`;
  const decisions = await Promise.all(
    Array.from({ length: 2 * LIMIT }, () => limiter.decide([rule], { tenantId: "tenant", keyId })),
  );
  return {
    allowed: decisions.filter((d) => d.allowed).length,
    unavailable: decisions.some((d) => d.unavailable),
    keyId,
  };
}

async function waitForMessage(tenantId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await publishChange(redis, "st:", tenantId);
    for (let i = 0; i < 5; i++) {
      if (received.includes(tenantId)) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return false;
}

describe("Redis Sentinel", () => {
  it("decides on the master the sentinel names, exactly under concurrency", async () => {
    const result = await probe();
    expect(result).toMatchObject({ allowed: LIMIT, unavailable: false });
    const master = await set.masterPort();
    expect((await withRedis(master, (r) => keysByPrefix(r, "st:"))).length).toBeGreaterThan(0);
    expect(await waitForMessage("before", 5_000)).toBe(true);
  });

  it("follows a failover: unavailable meanwhile, then exact on the promoted replica, and pub/sub again", async () => {
    const old = await set.killMaster();
    const killedAt = Date.now();
    let sawUnavailable = false;
    let recoveredMs: number | null = null;
    while (Date.now() - killedAt < 2 * RECOVERY_LIMIT_MS) {
      const result = await probe();
      sawUnavailable ||= result.unavailable;
      if (!result.unavailable && result.allowed === LIMIT) {
        recoveredMs = Date.now() - killedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    console.info(`[sentinel] exact again ${recoveredMs} ms after the master was killed`);
    expect(sawUnavailable).toBe(true);
    expect(recoveredMs).not.toBeNull();
    expect(recoveredMs!).toBeLessThan(RECOVERY_LIMIT_MS);
    await set.waitForFailover(old, 10_000);
    expect(await set.masterPort()).not.toBe(old);
    expect(await probe()).toMatchObject({ allowed: LIMIT, unavailable: false });
    expect(await waitForMessage("after", 10_000)).toBe(true);
  });
});
