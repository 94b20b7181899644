/**
 * Sustained load (`BENCH_ONLY=sustained`): two production servers (scripts/server.mjs) on one
 * Redis (this run's prefix) and one Postgres (the bench database), one API key with one generous
 * rule, `GET /api/v1/echo` from autocannon in this process.
 * 1. Warm-up, then each instance's maximum: both loaded together at full speed for a short run
 *    (on this 2-core machine the two servers share the CPU, so their maximum alone would not be
 *    sustainable together);
 * 2. both together at 80 % of their own maximum (autocannon `overallRate`) for 60 s
 *    (BENCH_SUSTAINED_SECONDS), each server's RSS sampled every second.
 * Reports per instance p50/p99 latency, errors, timeouts and non-2xx answers (goal: none), the
 * fail-mode activations of the sustained phase from its /api/metrics (goal: none), and RSS
 * of the first vs the last 10 s (goal: growth within RSS_GROWTH_BOUND_PCT). Both servers are
 * stopped and the tenant deleted whatever happens.
 */
import autocannon from "autocannon";
import { startSluice, type SluiceServer } from "../../test/support/sluiceServer";
import type { BenchContext } from "./context";
import { difference, failModeCounts } from "./failModeCounts";
import { createBenchKey, deleteBenchTenant, prepareServers, serverEnv, type BenchKey } from "./httpSetup";
import { round } from "./measure";
import { rssMiB, rssTrend } from "./sustained/rss";

const CONNECTIONS = 50;
const WARMUP_SECONDS = 5;
const MAX_SECONDS = 10;
const LOAD_SHARE = 0.8;
/** "Flat": the last 10 s use at most this much more memory than the first 10 s. */
const RSS_GROWTH_BOUND_PCT = 10;

function sustainedSeconds(): number {
  const raw = process.env.BENCH_SUSTAINED_SECONDS;
  const value = raw ? Number(raw) : 60;
  if (!Number.isFinite(value) || value < 2) throw new Error(`BENCH_SUSTAINED_SECONDS must be at least 2, got "${raw}"`);
  return value;
}

function load(server: SluiceServer, key: string, seconds: number, overallRate?: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.url}/api/v1/echo`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${key}` },
    ...(overallRate ? { overallRate } : {}),
  });
}

/** Samples each server's RSS once a second until `stop()`; a failed read is recorded as NaN. */
function sampleRss(servers: SluiceServer[]): { stop(): number[][] } {
  const samples = servers.map(() => [] as number[]);
  const timer = setInterval(() => {
    servers.forEach((s, i) => {
      rssMiB(s.pid).then(
        (mib) => samples[i]!.push(round(mib, 1)),
        () => samples[i]!.push(Number.NaN),
      );
    });
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

export async function sustainedCases(ctx: BenchContext): Promise<void> {
  const seconds = sustainedSeconds();
  prepareServers();
  const env = serverEnv(ctx, "sustained");
  const servers: SluiceServer[] = [];
  let benchKey: BenchKey | undefined;
  try {
    servers.push(await startSluice({ env }), await startSluice({ env }));
    benchKey = await createBenchKey(servers[0]!, "sustained");
    const key = benchKey.key;
    await Promise.all(servers.map((s) => load(s, key, WARMUP_SECONDS)));
    const max = (await Promise.all(servers.map((s) => load(s, key, MAX_SECONDS)))).map((r) => r.requests.average);
    const targets = max.map((m) => Math.max(1, Math.round(LOAD_SHARE * m)));
    console.log(
      `  sustained: maximum (both loaded) ${max.map((m) => Math.round(m)).join(" and ")} req/s; now ${targets.join(" and ")} req/s for ${seconds} s`,
    );
    const before = await Promise.all(servers.map(failModeCounts));
    const sampler = sampleRss(servers);
    const results = await Promise.all(servers.map((s, i) => load(s, key, seconds, targets[i])));
    const rss = sampler.stop();
    const failModes = (await Promise.all(servers.map(failModeCounts))).map((after, i) => difference(after, before[i]!));
    ctx.sustained = {
      seconds,
      connectionsPerInstance: CONNECTIONS,
      rssGrowthBoundPct: RSS_GROWTH_BOUND_PCT,
      instances: results.map((r, i) => {
        const trend = rssTrend(rss[i]!.filter(Number.isFinite));
        return {
          name: `instance ${i + 1}`,
          maxReqPerSec: Math.round(max[i]!),
          targetReqPerSec: targets[i]!,
          achievedReqPerSec: round(r.requests.average, 1),
          requests: r.requests.total,
          p50Ms: r.latency.p50,
          p99Ms: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
          failModeActivations: failModes[i]!.total,
          rssFirstMiB: round(trend.firstMiB, 1),
          rssLastMiB: round(trend.lastMiB, 1),
          rssGrowthPct: round(trend.growthPct, 2),
          rssFloorFirstMiB: trend.floorFirstMiB,
          rssFloorLastMiB: trend.floorLastMiB,
          rssSamplesMiB: rss[i]!,
        };
      }),
    };
    for (const i of ctx.sustained.instances) {
      console.log(
        `  ${i.name}: ${i.achievedReqPerSec} req/s (target ${i.targetReqPerSec}), p50 ${i.p50Ms} ms, p99 ${i.p99Ms} ms, non-2xx ${i.non2xx}, errors ${i.errors}, timeouts ${i.timeouts}, fail-mode activations ${i.failModeActivations}, RSS ${i.rssFirstMiB} -> ${i.rssLastMiB} MiB (${i.rssGrowthPct} %), floor ${i.rssFloorFirstMiB} -> ${i.rssFloorLastMiB} MiB`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await deleteBenchTenant(benchKey);
  }
}
