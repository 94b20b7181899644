/**
 * Fault: a slow Redis, under traffic. The throwaway redis-server is made to answer nothing for
 * 3 s, once by CLIENT PAUSE (commands wait) and once by DEBUG SLEEP (the whole server blocks),
 * while the test keeps sending requests to one path per fail mode. The connection stays up, so
 * only the timeout (SLUICE_REDIS_TIMEOUT_MS) can answer: every request answers within the timeout
 * plus a margin (measured per request; the bound is timeout + 1 s on this loaded machine), the
 * fail modes apply (open 200, closed 503, local enforced in memory), and once Redis answers again
 * decisions are Redis-backed and exact.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withRedis } from "@/test/support/redisServer";
import { failModePath, failModeRules, startFaultBed, type FaultBed } from "@/test/support/faultBed";
import { apiCall } from "@/test/support/adminClient";
import { sleep, waitUntil } from "@/test/support/sluiceEnv";
import { startTraffic, tally, type Sample } from "@/test/support/traffic";
import { MAX_SLIDING_LOG_LIMIT } from "@/lib/common/fieldLimits";

const TIMEOUT_MS = 300;
/** No request may take longer than this, whatever Redis does. */
const BOUND_MS = TIMEOUT_MS + 1_000;
const SLOW_MS = 3_000;
// As generous as a sliding_log rule may be (the schema caps it): these rules must never refuse.
const OPEN_LIMIT = MAX_SLIDING_LOG_LIMIT;
const LOCAL_LIMIT = 5;
/** Monitoring writes failed once and written again, and slack; requests log nothing. */
const MAX_LOG_LINES = 4;

let bed: FaultBed;

beforeAll(async () => {
  bed = await startFaultBed({
    label: "fault-slow-redis",
    rules: failModeRules({ open: OPEN_LIMIT, closed: OPEN_LIMIT, local: LOCAL_LIMIT }),
    env: { SLUICE_REDIS_TIMEOUT_MS: String(TIMEOUT_MS) },
    redisArgs: ["--enable-debug-command", "yes"],
  });
});

afterAll(async () => {
  await bed?.close();
});

/**
 * Whether Redis answers a PING on a new connection within `timeoutMs`, on a bare socket: an ioredis
 * client would wait for its ready check, which a sleeping Redis never answers.
 */
function answersPing(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data: Buffer) => done(data.toString().startsWith("+PONG")));
    socket.once("error", () => done(false));
  });
}

/**
 * Makes Redis answer nothing for SLOW_MS. Resolves once that is in effect, with the time
 * (performance.now()) the command was sent: Redis answers again SLOW_MS after it at the earliest.
 */
const slowDowns: [string, () => Promise<number>][] = [
  [
    "CLIENT PAUSE",
    () =>
      withRedis(bed.redis.port, async (redis) => {
        await redis.ping();
        const sentAt = performance.now();
        // Answered once the pause is in effect.
        await redis.call("CLIENT", "PAUSE", String(SLOW_MS), "ALL");
        return sentAt;
      }),
  ],
  [
    "DEBUG SLEEP",
    async () => {
      // DEBUG SLEEP answers only when it ends: send it on a connection made beforehand, do not
      // wait for its answer, but wait until Redis stops answering others.
      const sent = new Promise<number>((resolve, reject) => {
        withRedis(
          bed.redis.port,
          async (redis) => {
            await redis.ping();
            const asleep = redis.call("DEBUG", "SLEEP", String(SLOW_MS / 1000));
            resolve(performance.now());
            await asleep;
          },
          SLOW_MS + 5_000,
        ).catch(reject);
      });
      const sentAt = await sent;
      await waitUntil(async () => !(await answersPing(bed.redis.port, 300)), 2_000, "DEBUG SLEEP in effect");
      return sentAt;
    },
  ],
];

const of = (samples: Sample[], label: string) => samples.filter((s) => s.label === label);

describe.each(slowDowns)("fault: slow Redis (%s) under traffic", (how, slowDown) => {
  it("answers every request within the timeout plus a margin by fail mode, and recovers", async () => {
    const url = bed.servers[0]!.url;
    const traffic = await bed.createKey("traffic");
    const localDuring = await bed.createKey("local during");
    const localAfter = await bed.createKey("local after");
    const closedAnswers = async () => (await apiCall(url, failModePath("closed"), { key: traffic.key })).status;
    await waitUntil(async () => (await closedAnswers()) === 200, 10_000, "Redis decides");

    const modes = ["open", "closed", "local"] as const;
    // The local path's key changes once Redis is slow: all its requests are then decided in memory.
    let localKey = traffic;
    const load = startTraffic(
      (i) => {
        const mode = modes[i % modes.length]!;
        return {
          baseUrl: url,
          path: failModePath(mode),
          key: mode === "local" ? localKey.key : traffic.key,
          label: mode,
        };
      },
      { concurrency: 6 },
    );
    await sleep(300);
    const logMark = bed.logMark();
    const slowStartedAt = await slowDown();
    localKey = localDuring;
    const slowFrom = performance.now();
    const slowUntil = slowStartedAt + SLOW_MS;
    await sleep(slowUntil - performance.now());
    // Redis answers again: wait until a closed rule admits, then stop the load.
    await waitUntil(async () => (await closedAnswers()) === 200, 10_000, "Redis decides again");
    const recoveredAt = performance.now();
    await sleep(300);
    const samples = await load.stop();

    // Every request answered, none later than the bound.
    expect(samples.filter((s) => s.status === 0)).toEqual([]);
    const slowest = Math.max(...samples.map((s) => s.ms));
    expect(samples.filter((s) => s.ms > BOUND_MS)).toEqual([]);

    // Sent while Redis could not answer before the deadline: the fail modes answered.
    const slow = samples.filter((s) => s.sentAt >= slowFrom && s.sentAt + TIMEOUT_MS + 200 < slowUntil);
    expect(of(slow, "open").length).toBeGreaterThan(2);
    for (const s of of(slow, "open")) {
      expect(s.status).toBe(200);
      expect(s.remaining).toBe(String(OPEN_LIMIT));
    }
    expect(of(slow, "closed").length).toBeGreaterThan(2);
    for (const s of of(slow, "closed")) {
      expect(s.status).toBe(503);
      expect(s.contentType).toBe("application/problem+json");
    }
    const localSlow = of(slow, "local").filter((s) => s.key === localDuring.key);
    expect(localSlow.length).toBeGreaterThan(2);
    // Enforced in memory: a fresh key, so at most the limit admitted, and a refusal past it.
    expect(localSlow.filter((s) => s.status === 200).length).toBe(Math.min(localSlow.length, LOCAL_LIMIT));
    const during = samples.filter((s) => s.sentAt >= slowFrom && s.sentAt < slowUntil);
    console.info(
      `slow redis (${how}): ${samples.length} requests, slowest ${Math.round(slowest)} ms (bound ${BOUND_MS}); while slow ${JSON.stringify(tally(during))}; recovered ${Math.round(recoveredAt - slowUntil)} ms after Redis could answer again`,
    );

    // No error storm: at most a failed monitoring write and its recovery, nothing per request.
    const lines = bed.logSince(logMark);
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(MAX_LOG_LINES);

    // Recovered: Redis decides, exactly (a key the fault never touched).
    const remaining: (string | null)[] = [];
    for (let i = 0; i <= LOCAL_LIMIT; i++) {
      const res = await apiCall(url, failModePath("local"), { key: localAfter.key });
      remaining.push(res.status === 200 ? res.headers.get("x-ratelimit-remaining") : String(res.status));
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0", "429"]);
    const open = await apiCall(url, failModePath("open"), { key: localAfter.key });
    expect(Number(open.headers.get("x-ratelimit-remaining"))).toBe(OPEN_LIMIT - 1);
  });
});
