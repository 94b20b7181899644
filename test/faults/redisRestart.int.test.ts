/**
 * Fault: Redis stopped and restarted under traffic. A built server on a throwaway redis-server
 * (stopped with SIGTERM, restarted empty on the same port) while the test keeps sending requests to
 * one path per fail mode. While Redis is down: `open` answers 200 (full quota shown), `closed` 503
 * problem+json with Retry-After, `local` enforces the rule in the instance's memory (exactly `limit`
 * admitted). From 1 s after Redis answers again every decision is Redis-backed and exact (a key the
 * local limiter had used up gets Redis's fresh count: local would keep refusing it). Afterwards Redis
 * sees a bounded number of connections from Sluice, and the outage left a few log lines, not one per
 * request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedKey } from "@/test/support/adminClient";
import { failModePath, failModeRules, startFaultBed, type FaultBed } from "@/test/support/faultBed";
import { sleep, waitUntil } from "@/test/support/sluiceEnv";
import { startTraffic, tally, type Sample } from "@/test/support/traffic";
import { MAX_SLIDING_LOG_LIMIT } from "@/lib/common/fieldLimits";

// As generous as a sliding_log rule may be (the schema caps it): these rules must never refuse.
const OPEN_LIMIT = MAX_SLIDING_LOG_LIMIT;
const LOCAL_LIMIT = 5;
const RECOVERY_MS = 1_000;
/** Long enough for the reconnect backoff to reach its cap (50 ms more per attempt, 500 ms at most). */
const OUTAGE_MS = 3_500;
/** Requests in flight when a phase changes finish within this (requests take a few ms). */
const SETTLE_MS = 300;
/**
 * The data plane's connections to Redis, one each (lib/redis/connect.ts names them). The control
 * plane's thread has its own, named `sluice-control-*` (lib/config/plane.ts), each opened when first
 * used: at most one each.
 */
const CONNECTION_NAMES = ["sluice-changes", "sluice-limiter", "sluice-monitoring"];
const CONTROL_PLANE_NAMES = [
  "sluice-control-changes",
  "sluice-control-limiter",
  "sluice-control-monitoring",
  "sluice-control-simulator",
];
/** The outage's log lines: one "down" and one "back" per component that talks to Redis. */
const MAX_OUTAGE_LOG_LINES = 8;

let bed: FaultBed;

beforeAll(async () => {
  // 500 ms: a loaded 2-core machine must not turn a slow but working Redis into fail-mode answers.
  bed = await startFaultBed({
    label: "fault-redis-restart",
    rules: failModeRules({ open: OPEN_LIMIT, closed: OPEN_LIMIT, local: LOCAL_LIMIT }),
    env: { SLUICE_REDIS_TIMEOUT_MS: "500" },
  });
});

afterAll(async () => {
  await bed?.close();
});

const of = (samples: Sample[], label: string) => samples.filter((s) => s.label === label);

function expectRedisDecided(samples: Sample[]): void {
  for (const s of of(samples, "open")) {
    expect(s.status).toBe(200);
    // Fail-open shows the whole quota; a Redis decision counts this request.
    expect(Number(s.remaining)).toBeLessThan(OPEN_LIMIT);
  }
  for (const s of of(samples, "closed")) expect(s.status).toBe(200);
}

describe("fault: Redis stopped and restarted under traffic", () => {
  it("answers by fail mode while down, is exact again within 1 s of Redis answering, with bounded connections and logs", async () => {
    const url = bed.servers[0]!.url;
    const keys: Record<string, CreatedKey> = {
      traffic: await bed.createKey("traffic"),
      before: await bed.createKey("local before"),
      during: await bed.createKey("local during"),
      transition: await bed.createKey("local transition"),
    };
    // Which key the local path charges: changed between phases, so each phase has its own count.
    let localKey = keys.before!;
    const modes = ["open", "closed", "local"] as const;
    // Redis decides before the fault (the first call also loads the script).
    await waitUntil(
      async () =>
        (await fetch(url + failModePath("closed"), { headers: { authorization: `Bearer ${keys.traffic!.key}` } }))
          .status === 200,
      10_000,
      "Redis decides",
    );

    const logMark = bed.logMark();
    const traffic = startTraffic((i) => {
      const mode = modes[i % modes.length]!;
      return {
        baseUrl: url,
        path: failModePath(mode),
        key: mode === "local" ? localKey.key : keys.traffic!.key,
        label: mode,
      };
    });
    await sleep(500);

    await bed.redis.stop();
    localKey = keys.during!;
    const downFrom = performance.now();
    await sleep(OUTAGE_MS);
    const downUntil = performance.now();
    localKey = keys.transition!;
    await sleep(SETTLE_MS);

    await bed.redis.restart();
    const answeringAt = performance.now();
    await sleep(RECOVERY_MS);
    // The key the local limiter used up: local would refuse it, Redis (restarted empty) counts anew.
    localKey = keys.during!;
    const normalFrom = performance.now();
    await sleep(1_500);
    const samples = await traffic.stop();

    // No request hung or failed at the socket, ever.
    expect(samples.filter((s) => s.status === 0)).toEqual([]);

    const before = samples.filter((s) => s.answeredAt < downFrom - SETTLE_MS);
    expect(before.length).toBeGreaterThan(10);
    expectRedisDecided(before);

    const down = samples.filter((s) => s.sentAt >= downFrom && s.sentAt < downUntil);
    expect(of(down, "open").length).toBeGreaterThan(10);
    for (const s of of(down, "open")) {
      expect(s.status).toBe(200);
      expect(s.remaining).toBe(String(OPEN_LIMIT));
    }
    expect(of(down, "closed").length).toBeGreaterThan(10);
    for (const s of of(down, "closed")) {
      expect(s.status).toBe(503);
      expect(s.contentType).toBe("application/problem+json");
      expect(Number(s.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(s.body).toMatchObject({
        status: 503,
        title: "Service Unavailable",
        detail: expect.stringMatching(/unavailable/i),
      });
    }
    // The local limiter enforces the rule in memory: exactly LOCAL_LIMIT admitted, then refusals.
    const localDown = of(down, "local");
    expect(localDown.length).toBeGreaterThan(LOCAL_LIMIT);
    expect(localDown.filter((s) => s.status === 200)).toHaveLength(LOCAL_LIMIT);
    expect(localDown.filter((s) => s.status === 429)).toHaveLength(localDown.length - LOCAL_LIMIT);

    // From 1 s after Redis answers: Redis decides, exactly.
    const normal = samples.filter((s) => s.sentAt >= normalFrom);
    expect(normal.length).toBeGreaterThan(10);
    expectRedisDecided(normal);
    const localNormal = of(normal, "local");
    expect(localNormal.length).toBeGreaterThan(LOCAL_LIMIT);
    const admitted = localNormal.filter((s) => s.status === 200);
    expect(admitted.map((s) => s.remaining).sort()).toEqual(["0", "1", "2", "3", "4"]);
    expect(localNormal.filter((s) => s.status === 429)).toHaveLength(localNormal.length - LOCAL_LIMIT);

    // How long recovery actually took: the first closed answer of 200 after Redis answered.
    const firstBack = of(samples, "closed").find((s) => s.sentAt >= answeringAt && s.status === 200);
    expect(firstBack).toBeDefined();
    console.info(
      `redis restart: fail mode answers while down ${JSON.stringify(tally(down))}; back ${Math.round(firstBack!.sentAt - answeringAt)} ms after Redis answered`,
    );

    // No stuck or piled-up connections: each part of Sluice reconnected exactly once.
    const clients = await bed.clients();
    const names = clients.map((line) => /\bname=(\S*)/.exec(line)?.[1] ?? "");
    expect(names.filter((name) => !name.startsWith("sluice-control-")).sort()).toEqual(CONNECTION_NAMES);
    const control = names.filter((name) => name.startsWith("sluice-control-"));
    expect(new Set(control).size).toBe(control.length);
    for (const name of control) expect(CONTROL_PLANE_NAMES).toContain(name);

    // No error storm: a handful of lines for the whole outage, none per request.
    const lines = bed.logSince(logMark);
    console.info(
      `redis restart: ${clients.length} connection(s) after recovery; ${lines.length} log line(s) for the outage:\n${lines.join("\n")}`,
    );
    expect(lines.length).toBeLessThanOrEqual(MAX_OUTAGE_LOG_LINES);
    for (const part of ["limiter", "monitoring"]) {
      expect(lines.filter((line) => line.includes(`(${part}) unavailable`))).toHaveLength(1);
      expect(lines.filter((line) => line.includes(`(${part}) is back`))).toHaveLength(1);
    }
    expect(lines.join("\n")).not.toMatch(/unexpected error/i);
  });
});
