/**
 * Fail modes against a real, throwaway redis-server (started on a free loopback port by the test):
 * stopped, paused (slow) and restarted. Each rule's failMode decides, within the timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RedisServerHandle } from "@/test/support/redisServer";
import { limiterRule } from "@/test/support/rules";
import { createRedisClient, type RedisClient } from "../redis/connect";
import { createLimiter, type Limiter } from "./decide";
import { LocalLimiter } from "./localLimiter";

const TIMEOUT_MS = 100;
// The bound a decision must meet: the timeout plus scheduling slack on a loaded 2-core machine.
const BOUND_MS = TIMEOUT_MS + 150;
let subjectSeq = 0;
const subject = { tenantId: "t", keyId: "k" };

let server: RedisServerHandle;
let redis: RedisClient;
let limiter: Limiter;

beforeAll(async () => {
  server = await startRedisServer();
  redis = createRedisClient({ url: server.url, cluster: false, timeoutMs: TIMEOUT_MS, autoPipelining: false });
  limiter = createLimiter({ redis, prefix: "fm:", timeoutMs: TIMEOUT_MS, local: new LocalLimiter() });
});

afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

async function timed<T>(op: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await op();
  return [value, performance.now() - started];
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each([
  ["stopped", async () => server.kill()],
  ["paused (CLIENT PAUSE: slow, not down)", async () => server.pause(3000)],
])("Redis %s", (_, breakRedis) => {
  it("each fail mode answers within the timeout, then Redis decides again once it is back", async () => {
    const subject = { tenantId: "t", keyId: `k${subjectSeq++}` };
    const open = limiterRule({ name: "open", failMode: "open", limit: 1000 });
    const closed = limiterRule({ name: "closed", failMode: "closed", limit: 1000 });
    const local = limiterRule({ name: "local", failMode: "local", limit: 2 });
    // Redis decides before the break. The first call also connects and loads the script, which
    // can exceed the 100 ms timeout on a loaded machine: wait until Redis answers in time.
    await waitFor(async () => (await limiter.decide([open], subject)).results[0]!.source === "redis", 10_000);

    await breakRedis();

    const [openDecision, openMs] = await timed(() => limiter.decide([open], subject));
    expect(openDecision).toMatchObject({ allowed: true, unavailable: false });
    expect(openDecision.results[0]!.source).toBe("fail_open");
    expect(openMs).toBeLessThan(BOUND_MS);

    const [closedDecision, closedMs] = await timed(() => limiter.decide([closed], subject));
    expect(closedDecision).toMatchObject({ allowed: false, unavailable: true });
    expect(closedMs).toBeLessThan(BOUND_MS);

    const locals = [];
    for (let i = 0; i < 3; i++) {
      const [d, ms] = await timed(() => limiter.decide([local], subject));
      expect(ms).toBeLessThan(BOUND_MS);
      locals.push(d.allowed);
    }
    expect(locals).toEqual([true, true, false]);

    if (server.isStopped()) await server.restart();
    await waitFor(async () => (await limiter.decide([open], subject)).results[0]!.source === "redis", 10_000);
  });
});

it("a Redis that was never reachable fails fast too", async () => {
  const unreachable = createRedisClient({
    url: "redis://127.0.0.1:1",
    cluster: false,
    timeoutMs: TIMEOUT_MS,
    autoPipelining: false,
  });
  const limiterNoRedis = createLimiter({ redis: unreachable, prefix: "fm:", timeoutMs: TIMEOUT_MS });
  const [decision, ms] = await timed(() => limiterNoRedis.decide([limiterRule({ failMode: "closed" })], subject));
  expect(decision.unavailable).toBe(true);
  expect(ms).toBeLessThan(BOUND_MS);
  unreachable.disconnect();
});
