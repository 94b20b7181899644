/**
 * Fault: a server instance killed (SIGKILL) mid-traffic. Two built servers share one throwaway
 * redis-server (and the test database); the test sends requests to both, alternately, under rules
 * of every algorithm (all fail closed, so any trouble shows as a 503) and one small shared limit.
 * Instance A is killed while requests are in flight. B goes on serving without a failure, with the
 * limit A and B shared: exact, short only of what A decided for requests it never answered. After
 * the run every key under the test prefix has a TTL: neither a limiter counter nor a monitoring key
 * is left to live forever (A died with its monitoring batch unsent, perhaps in the middle of one).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALGORITHMS } from "@/lib/limiter/types";
import { MAX_SLIDING_LOG_LIMIT } from "@/lib/common/fieldLimits";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { HOUR_MS, startFaultBed, type FaultBed } from "@/test/support/faultBed";
import { withRedis } from "@/test/support/redisServer";
import { sleep, waitUntil } from "@/test/support/sluiceEnv";
import { startTraffic, tally } from "@/test/support/traffic";

const SHARED_LIMIT = 60;
const SHARED_PATH = "/api/v1/echo/shared";
/** At most one shared-limit request per this: 1.2 s before the kill charge at most 30 of 60. */
const SHARED_EVERY_MS = 40;
const algorithmPath = (algorithm: string) => `/api/v1/echo/${algorithm}`;

const rules: RuleInput[] = [
  {
    name: "shared",
    algorithm: "sliding_log",
    limit: SHARED_LIMIT,
    windowMs: HOUR_MS,
    failMode: "closed",
    match: { path: SHARED_PATH },
  },
  ...ALGORITHMS.map((algorithm): RuleInput => ({
    name: `alg-${algorithm.replace("_", "-")}`,
    algorithm,
    limit: MAX_SLIDING_LOG_LIMIT,
    windowMs: HOUR_MS,
    failMode: "closed",
    match: { path: algorithmPath(algorithm) },
  })),
];

let bed: FaultBed;

beforeAll(async () => {
  bed = await startFaultBed({
    label: "fault-instance-killed",
    rules,
    instances: 2,
    env: { SLUICE_REDIS_TIMEOUT_MS: "1000" },
  });
});

afterAll(async () => {
  await bed?.close();
});

/** Every key in the throwaway Redis with its PTTL (-1: no TTL). */
async function keysWithTtl(): Promise<[string, number][]> {
  return withRedis(
    bed.redis.port,
    async (redis) => {
      const out: [string, number][] = [];
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "COUNT", 1000);
        cursor = next;
        for (const key of keys) out.push([key, await redis.pttl(key)]);
      } while (cursor !== "0");
      return out;
    },
    5_000,
  );
}

describe("fault: an instance killed mid-traffic", () => {
  it("the other instance goes on with the shared exact limit, and every key keeps a TTL", async () => {
    const [a, b] = bed.servers as [(typeof bed.servers)[0], (typeof bed.servers)[0]];
    const shared = await bed.createKey("shared");
    const spread = await bed.createKey("algorithms");
    // B must know the tenant's keys and rules before A dies (it learns them by change notice).
    await waitUntil(
      async () =>
        (await fetch(b.url + SHARED_PATH, { headers: { authorization: `Bearer ${spread.key}` } })).status === 200,
      10_000,
      "B serves the tenant",
    );

    let aAlive = true;
    // The shared limit is charged at most every SHARED_EVERY_MS, so it is not used up before A
    // dies however fast this machine is; the other requests spread over the algorithms.
    let lastShared = -Infinity;
    const traffic = startTraffic(
      (i) => {
        const server = aAlive && i % 2 === 0 ? a : b;
        if (performance.now() - lastShared >= SHARED_EVERY_MS) {
          lastShared = performance.now();
          return { baseUrl: server.url, path: SHARED_PATH, key: shared.key, label: "shared" };
        }
        const algorithm = ALGORITHMS[i % ALGORITHMS.length]!;
        return { baseUrl: server.url, path: algorithmPath(algorithm), key: spread.key, label: algorithm };
      },
      { concurrency: 4, pauseMs: 5 },
    );
    // Long enough for A to flush monitoring data at least once, short of the shared limit.
    await sleep(1_200);
    await a.kill();
    aAlive = false;
    const killedAt = performance.now();
    // B goes on until the shared limit refuses.
    await waitUntil(
      async () => traffic.since(killedAt).filter((s) => s.label === "shared" && s.status === 429).length >= 5,
      30_000,
      "the shared limit refuses",
    );
    const samples = await traffic.stop();

    const onA = samples.filter((s) => s.baseUrl === a.url);
    const onB = samples.filter((s) => s.baseUrl === b.url);
    const lostOnA = onA.filter((s) => s.status === 0);
    // The limit was still open when A died: B carried on with what A had used of it.
    expect(samples.filter((s) => s.label === "shared" && s.sentAt < killedAt && s.status === 429)).toEqual([]);
    console.info(
      `instance killed: A ${JSON.stringify(tally(onA, (s) => String(s.status)))}, B ${JSON.stringify(tally(onB, (s) => String(s.status)))}`,
    );
    // A answered until it was killed; only requests in flight then got no answer.
    expect(onA.filter((s) => s.status === 200).length).toBeGreaterThan(10);
    for (const s of lostOnA) expect(s.answeredAt).toBeGreaterThanOrEqual(killedAt - 1_000);
    // B never failed: only admissions and the shared limit's refusals.
    expect(onB.filter((s) => s.sentAt > killedAt).length).toBeGreaterThan(20);
    expect(tally(onB, (s) => `${s.label === "shared" ? "shared" : "other"} ${s.status}`)).toEqual(
      expect.objectContaining({ "other 200": expect.any(Number), "shared 429": expect.any(Number) }),
    );
    for (const s of onB) expect(s.status === 200 || (s.label === "shared" && s.status === 429)).toBe(true);

    // One limit across both: exactly SHARED_LIMIT admitted, less at most what A decided but never answered.
    const admitted = samples.filter((s) => s.label === "shared" && s.status === 200);
    expect(admitted.length).toBeLessThanOrEqual(SHARED_LIMIT);
    expect(admitted.length).toBeGreaterThanOrEqual(SHARED_LIMIT - lostOnA.length);
    expect(new Set(admitted.map((s) => s.remaining)).size).toBe(admitted.length);
    console.info(
      `instance killed: shared limit ${SHARED_LIMIT}: admitted ${admitted.filter((s) => s.baseUrl === a.url).length} by A, ${admitted.filter((s) => s.baseUrl === b.url).length} by B, ${lostOnA.length} request(s) lost in flight on A`,
    );

    // No key without a TTL: B's last monitoring flush is in (it writes every second).
    await sleep(1_500);
    const keys = await keysWithTtl();
    console.info(`instance killed: ${keys.length} keys in Redis after the run`);
    expect(keys.length).toBeGreaterThan(ALGORITHMS.length);
    expect(keys.filter(([key]) => !key.startsWith(bed.setup.prefix))).toEqual([]);
    expect(keys.filter(([, ttl]) => ttl === -1)).toEqual([]);
  });
});
