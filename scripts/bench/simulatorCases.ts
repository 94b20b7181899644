/**
 * The rule simulator's replay speed (issue 6: "replaying 100,000 recorded requests takes at most a
 * few seconds"): 100,000 requests of one tenant are written straight into its trace stream (the
 * layout of lib/monitoring/record/requestTrace.ts: 200 keys, 50 client IPs, two paths, over the last hour),
 * then one simulation replays them all twice (current and candidate rules) through the Lua
 * limiter, as POST .../simulate does (rules come from a stub store instead of Postgres). Reports
 * the run's seconds (p50Ms = p99Ms = the one run's ms) and replayed requests per second, and the
 * stream's MEMORY USAGE per recorded request in the row's note. Keys live under the run's prefix.
 */
import { performance } from "node:perf_hooks";
import { compileRule } from "../../lib/policy/compiled/effectiveRules";
import { monitoringKeys } from "../../lib/monitoring/record/monitoringKeys";
import { traceFields, type TraceEntry } from "../../lib/monitoring/record/requestTrace";
import { ruleListSchema, type RuleInput } from "../../lib/policy/rules/ruleSchema";
import { createSimulator } from "../../lib/control/simulator/simulator";
import type { SimulationStore } from "../../lib/control/simulator/simulationStore";
import { createRedisClient } from "../../lib/redis/connect";
import { redisCpuSeconds, type BenchContext } from "./context";
import { round } from "./measure";
import type { RunRow } from "./types";

export const SIMULATOR_REQUESTS = 100_000;
const TENANT = "BenchSim";
const WRITE_CHUNK = 5_000;

const CURRENT: RuleInput[] = [
  { name: "per-key", algorithm: "token_bucket", limit: 5, windowMs: 60_000, burst: 10 },
  { name: "per-ip", scope: "ip", algorithm: "sliding_window", limit: 30, windowMs: 60_000 },
];
const CANDIDATE: RuleInput[] = [
  { name: "per-key", algorithm: "sliding_window", limit: 6, windowMs: 60_000 },
  {
    name: "tenant-total",
    scope: "tenant",
    algorithm: "fixed_window",
    limit: 1_500,
    windowMs: 60_000,
    match: { methods: ["GET"] },
  },
  { name: "items", algorithm: "gcra", limit: 2, windowMs: 10_000, burst: 3, match: { path: "/api/v1/echo/items/*" } },
];

function entryAt(i: number, fromMs: number, spacingMs: number): TraceEntry {
  return {
    tenantId: TENANT,
    atMs: Math.floor(fromMs + i * spacingMs),
    keyId: `k${String(i % 200).padStart(7, "0")}`,
    ip: `10.0.${i % 5}.${i % 50}`,
    method: i % 4 === 0 ? "POST" : "GET",
    path: i % 3 === 0 ? `/api/v1/echo/items/${i % 1000}` : "/api/v1/echo",
    cost: 1,
    decision: i % 10 === 0 ? "refused" : "allowed",
    refusedBy: i % 10 === 0 ? "per-key" : null,
  };
}

const stubStore: SimulationStore = {
  async assertTenant() {},
  async ruleSets() {
    const tenant = ruleListSchema.parse(CURRENT).map((rule, i) => compileRule(rule, String(i + 1), false));
    return { tenant, overrides: new Map(), refs: new Map(tenant.map((r) => [r.rule.name, r.limiter.ref])) };
  },
  async keyNames() {
    return new Map();
  },
};

export async function simulatorCases(ctx: BenchContext): Promise<void> {
  const key = monitoringKeys(ctx.prefix, TENANT).trace();
  const toMs = Date.now();
  const fromMs = toMs - 3_600_000;
  for (let i = 0; i < SIMULATOR_REQUESTS; i += WRITE_CHUNK) {
    const pipeline = ctx.admin.pipeline();
    for (let j = i; j < Math.min(SIMULATOR_REQUESTS, i + WRITE_CHUNK); j++)
      pipeline.call("XADD", key, "*", ...traceFields(entryAt(j, fromMs, 3_600_000 / SIMULATOR_REQUESTS)));
    await pipeline.exec();
  }
  const streamBytes = Number(await ctx.admin.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
  // Stream ids are the write time: the range must reach past the last write (the reader's lag margin is for flushes).
  const writtenMs = Date.now();

  const redis = createRedisClient({ url: ctx.url, cluster: false, timeoutMs: 10_000, autoPipelining: false });
  const simulator = createSimulator({ redis, prefix: ctx.prefix, store: stubStore, maxReplay: 200_000 });
  try {
    const rules = ruleListSchema.parse(CANDIDATE);
    await simulator.simulate(TENANT, { rules, fromMs: toMs - 60_000, toMs }); // warm: connection, script cache
    const cpuBefore = process.cpuUsage();
    const redisBefore = await redisCpuSeconds(ctx.admin);
    const started = performance.now();
    const result = await simulator.simulate(TENANT, { rules, fromMs, toMs: writtenMs + 1 });
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const redisCpu = (await redisCpuSeconds(ctx.admin)) - redisBefore;
    if (result.requests !== SIMULATOR_REQUESTS)
      throw new Error(`the simulation replayed ${result.requests} of ${SIMULATOR_REQUESTS} requests`);
    const row: RunRow = {
      subject: "sluice-simulator",
      case: `replay-${SIMULATOR_REQUESTS}`,
      concurrency: 1,
      opsPerSec: Math.round((SIMULATOR_REQUESTS * 1000) / ms),
      p50Ms: round(ms, 1),
      p99Ms: round(ms, 1),
      refusedPct: round((100 * result.candidate.refused) / result.requests, 2),
      errors: 0,
      nodeCpuUsPerOp: round((cpu.user + cpu.system) / SIMULATOR_REQUESTS, 1),
      redisCpuUsPerOp: round((redisCpu * 1e6) / SIMULATOR_REQUESTS, 1),
      otherCpuPct: 0,
      note: `one simulation: ${SIMULATOR_REQUESTS} recorded requests replayed twice (current and candidate rules); ops/s = requests/s, p50/p99 = the run's ms; trace stream MEMORY USAGE ${streamBytes} B = ${round(streamBytes / SIMULATOR_REQUESTS, 1)} B per recorded request`,
    };
    ctx.rows.push(row);
    console.log(
      `  sluice-simulator       replay ${SIMULATOR_REQUESTS} requests: ${round(ms / 1000, 2)} s, ${row.opsPerSec} requests/s (current ${result.current.refused} / candidate ${result.candidate.refused} refused); stream ${round(streamBytes / SIMULATOR_REQUESTS, 1)} B per request`,
    );
  } finally {
    redis.disconnect();
    await ctx.admin.unlink(key);
  }
}
