/**
 * Fault: the link to Redis goes silent under traffic (cut without a FIN or RST: a partition, a
 * failover behind a virtual IP), through a proxy (test/support/faultyProxy.ts) between the built
 * server and a throwaway redis-server. The server's sockets stay "open", so only timeouts tell it:
 * every request answers within the timeout plus a margin, by fail mode. When the network is back
 * for new connections (the silenced ones stay dead), the server replaces its connections by itself
 * (lib/redis/deadline.ts) and Redis decides again, exactly, within 5 s of silence plus a margin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SILENT_RECONNECT_MS } from "@/lib/redis/deadline";
import { apiCall } from "@/test/support/adminClient";
import { failModePath, failModeRules, startFaultBed, type FaultBed } from "@/test/support/faultBed";
import { sleep, waitUntil } from "@/test/support/sluiceEnv";
import { startTraffic, tally } from "@/test/support/traffic";
import { MAX_SLIDING_LOG_LIMIT } from "@/lib/common/fieldLimits";

const TIMEOUT_MS = 300;
const BOUND_MS = TIMEOUT_MS + 1_000;
// As generous as a sliding_log rule may be (the schema caps it): these rules must never refuse.
const OPEN_LIMIT = MAX_SLIDING_LOG_LIMIT;
const SILENT_MS = 1_000;

let bed: FaultBed;

beforeAll(async () => {
  bed = await startFaultBed({
    label: "fault-silent-redis",
    rules: failModeRules({ open: OPEN_LIMIT, closed: OPEN_LIMIT, local: 5 }),
    env: { SLUICE_REDIS_TIMEOUT_MS: String(TIMEOUT_MS) },
    proxy: true,
  });
});

afterAll(async () => {
  await bed?.close();
});

describe("fault: the link to Redis goes silent under traffic", () => {
  it("answers by fail mode within the timeout, then reconnects by itself and decides in Redis again", async () => {
    const url = bed.servers[0]!.url;
    const traffic = await bed.createKey("traffic");
    const fresh = await bed.createKey("after");
    await waitUntil(
      async () => (await apiCall(url, failModePath("closed"), { key: traffic.key })).status === 200,
      10_000,
      "Redis decides",
    );

    const modes = ["open", "closed"] as const;
    const load = startTraffic(
      (i) => ({ baseUrl: url, path: failModePath(modes[i % 2]!), key: traffic.key, label: modes[i % 2] }),
      { concurrency: 4 },
    );
    await sleep(300);
    const logMark = bed.logMark();
    bed.proxy!.blackhole();
    const silentFrom = performance.now();
    await sleep(SILENT_MS);
    bed.proxy!.heal();
    await waitUntil(
      async () => load.since(silentFrom).some((s) => s.label === "closed" && s.status === 200),
      SILENT_RECONNECT_MS + 10_000,
      "Redis decides again",
    );
    const backAfter = performance.now() - silentFrom;
    await sleep(300);
    const samples = await load.stop();

    expect(samples.filter((s) => s.status === 0)).toEqual([]);
    expect(samples.filter((s) => s.ms > BOUND_MS)).toEqual([]);
    const silent = samples.filter(
      (s) => s.sentAt >= silentFrom && s.sentAt + BOUND_MS < silentFrom + SILENT_RECONNECT_MS,
    );
    expect(silent.length).toBeGreaterThan(10);
    for (const s of silent) {
      if (s.label === "closed") expect(s.status).toBe(503);
      else expect(s.remaining).toBe(String(OPEN_LIMIT));
    }
    console.info(
      `silent redis: ${JSON.stringify(tally(samples.filter((s) => s.sentAt >= silentFrom)))} from the silence on, slowest ${Math.round(Math.max(...samples.map((s) => s.ms)))} ms; Redis decides again ${Math.round(backAfter)} ms after the link went silent`,
    );
    // The limiter replaced its connection after the silence, not earlier and not much later.
    expect(backAfter).toBeLessThan(SILENT_RECONNECT_MS + 5_000);

    // Redis decides, exactly, from then on.
    for (const remaining of [OPEN_LIMIT - 1, OPEN_LIMIT - 2, OPEN_LIMIT - 3]) {
      const res = await apiCall(url, failModePath("open"), { key: fresh.key });
      expect(Number(res.headers.get("x-ratelimit-remaining"))).toBe(remaining);
    }
    // A few lines: the reconnects, the monitoring writes lost and back; nothing per request.
    await sleep(3_000);
    const lines = bed.logSince(logMark);
    console.info(`silent redis: ${lines.length} log line(s):\n${lines.join("\n")}`);
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.filter((line) => line.includes("(limiter) answered nothing"))).toHaveLength(1);
    expect(lines.filter((line) => line.includes("(limiter) is back")).length).toBeGreaterThanOrEqual(1);
  });
});
