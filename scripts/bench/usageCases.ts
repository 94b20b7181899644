/**
 * Metering at scale (`BENCH_ONLY=usage`, issue 33 "Speed and scale"): BENCH_USAGE_KEYS keys
 * (default 1,000,000) of one tenant, each active BENCH_USAGE_HOURS hours (default 4) of a 31-day
 * month, each hour one request cell (rule `*`) and one rule cell, written into the monitoring
 * flushes' per-minute Redis hashes as the recorder does, then rolled up into Postgres by the real
 * roll-up (lib/monitoring/usage/usageRollup.ts) in rounds of ROUND_MINUTES minute hashes.
 * Rows:
 * - `usage-rollup`: cells rolled up per second; Node CPU µs per cell (the roll-up's parse and
 *   statements; Postgres's own CPU is not in it); the note gives the Postgres rows and bytes per
 *   key-month (pg_total_relation_size of UsageHour and its indexes, before and after) and the
 *   roll-up's CPU per second of traffic at the data set's mean request rate.
 * - `usage-query` `31d-one-key` and `31d-tenant-wide`: the usage API's query (usageQuery.ts) for
 *   one key by day, and for the whole tenant by day and key, over the 31 days; p50/p99 of
 *   QUERY_RUNS runs. Goals (issue 33): under 100 ms and under 1 s at 1 million keys.
 * Uses BENCH_DATABASE_URL (migrated here); the bench tenant's rows are deleted afterwards.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/db/generated/client";
import { GLOBAL_SCOPE, HOUR_MS, MINUTE_MS, monitoringKeys } from "../../lib/monitoring/record/monitoringKeys";
import { usageField } from "../../lib/monitoring/record/usageTally";
import { UsageRollup } from "../../lib/monitoring/usage/usageRollup";
import { queryUsage } from "../../lib/monitoring/usage/usageQuery";
import { BENCH_DATABASE_URL, type BenchContext } from "./context";
import { round } from "./measure";
import type { RunRow } from "./types";

const KEYS = Number(process.env.BENCH_USAGE_KEYS || 1_000_000);
const HOURS = Number(process.env.BENCH_USAGE_HOURS || 4);
const CELLS_PER_MINUTE_KEY = 20_000;
const ROUND_MINUTES = 50;
const QUERY_RUNS = 20;
const MONTH_HOURS = 31 * 24;
const RULE_REF = "1";

const keyId = (i: number) => `K${i.toString(36).padStart(7, "0")}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function tableBytes(db: PrismaClient): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ bytes: bigint }[]>(`SELECT pg_total_relation_size('"UsageHour"') AS bytes`);
  return Number(row?.bytes ?? 0);
}

const row = (subject: string, name: string, extra: Partial<RunRow>): RunRow => ({
  subject,
  case: name,
  concurrency: 1,
  opsPerSec: 0,
  p50Ms: 0,
  p99Ms: 0,
  refusedPct: 0,
  errors: 0,
  nodeCpuUsPerOp: 0,
  redisCpuUsPerOp: 0,
  otherCpuPct: 0,
  part: "usage",
  ...extra,
});

export async function usageCases(ctx: BenchContext): Promise<void> {
  const migrated = spawnSync("npm", ["run", "db:migrate"], {
    env: { ...process.env, DATABASE_URL: BENCH_DATABASE_URL },
    stdio: "ignore",
  });
  if (migrated.status !== 0) throw new Error("usage bench: db:migrate failed on BENCH_DATABASE_URL");
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: BENCH_DATABASE_URL }) });
  const prefix = `${ctx.prefix}usage:`;
  const tenantId = randomBytes(6).toString("base64url").replace(/[-_]/g, "x").slice(0, 8);
  const monthStartHour = Math.floor(Date.now() / HOUR_MS) - MONTH_HOURS;
  const keys = monitoringKeys(prefix, GLOBAL_SCOPE);
  const clock = () => Date.now() + 2 * MINUTE_MS;
  const rollup = new UsageRollup({ redis: ctx.admin, prefix, db: () => db, clock, log: () => undefined });
  try {
    const bytesBefore = await tableBytes(db);
    let requests = 0;
    let cells = 0;
    let rollupMs = 0;
    let rollupCpuUs = 0;
    // Cells, key after key and hour after hour, into minute hashes; rolled up every ROUND_MINUTES hashes.
    let minuteCells = 0;
    let minuteIndex = 0;
    let pipeline = ctx.admin.pipeline();
    const flushRound = async () => {
      await pipeline.exec();
      pipeline = ctx.admin.pipeline();
      const started = performance.now();
      const cpu = process.cpuUsage();
      await rollup.runOnce();
      const used = process.cpuUsage(cpu);
      rollupMs += performance.now() - started;
      rollupCpuUs += used.user + used.system;
      minuteIndex = 0;
    };
    const base = Math.floor(Date.now() / MINUTE_MS) - 1;
    for (let i = 0; i < KEYS; i++) {
      for (let h = 0; h < HOURS; h++) {
        const hour = monthStartHour + ((i * 7 + h * 97) % MONTH_HOURS);
        const n = 1 + ((i * 31 + h * 17) % 100);
        const refused = n % 10 === 0 ? 1 : 0;
        const key = keys.usage(base - ROUND_MINUTES + minuteIndex);
        for (const rule of ["*", RULE_REF]) {
          const cell = { tenantId, hour, caller: keyId(i), rule, tier: "" };
          pipeline.hincrby(key, usageField(cell, "a"), n - refused);
          if (refused) pipeline.hincrby(key, usageField(cell, "r"), refused);
          pipeline.hincrby(key, usageField(cell, "u"), n - refused);
          cells++;
        }
        pipeline.pexpire(key, HOUR_MS);
        requests += n;
        minuteCells += 2;
        if (minuteCells >= CELLS_PER_MINUTE_KEY) {
          minuteCells = 0;
          minuteIndex++;
          if (minuteIndex >= ROUND_MINUTES) await flushRound();
          else if (minuteIndex % 5 === 0) {
            await pipeline.exec();
            pipeline = ctx.admin.pipeline();
          }
        }
      }
    }
    await flushRound();
    const rows = await db.usageHour.count({ where: { tenantId } });
    const bytes = (await tableBytes(db)) - bytesBefore;
    const trafficSeconds = MONTH_HOURS * 3600;
    const cpuPerTrafficSecondUs = rollupCpuUs / trafficSeconds;
    ctx.rows.push(
      row("usage-rollup", `rollup-${KEYS}-keys`, {
        opsPerSec: Math.round(cells / (rollupMs / 1000)),
        nodeCpuUsPerOp: round(rollupCpuUs / cells, 3),
        note: `${KEYS} keys x ${HOURS} active hours of 31 days: ${rows} Postgres rows (${round(rows / KEYS, 2)} per key-month), ${round(bytes / KEYS, 1)} bytes per key-month (table and indexes); roll-up Node CPU ${round(rollupCpuUs / 1000, 1)} ms for ${requests} requests, ${round(cpuPerTrafficSecondUs, 3)} µs per second of traffic at this month's mean rate (${round(requests / trafficSeconds, 2)} req/s)`,
      }),
    );
    const from = new Date(monthStartHour * HOUR_MS);
    const to = new Date((monthStartHour + MONTH_HOURS) * HOUR_MS);
    for (const [name, input] of [
      ["31d-one-key", { from, to, granularity: "day", key: keyId(Math.floor(KEYS / 2)) }],
      ["31d-tenant-wide", { from, to, granularity: "day", groupBy: "key" }],
    ] as const) {
      const times: number[] = [];
      let answered = 0;
      for (let r = 0; r < QUERY_RUNS; r++) {
        const started = performance.now();
        answered = (await queryUsage(db, tenantId, input)).length;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      ctx.rows.push(
        row("usage-query", name, {
          opsPerSec: Math.round(1000 / (times.reduce((a, b) => a + b, 0) / times.length)),
          p50Ms: round(percentile(times, 50), 3),
          p99Ms: round(percentile(times, 99), 3),
          note: `usage API query over ${KEYS} keys' month: ${answered} rows answered; goal ${name === "31d-one-key" ? "< 100 ms" : "< 1 s"}`,
        }),
      );
    }
    for (const r of ctx.rows.filter((x) => x.part === "usage"))
      console.log(`  ${r.subject.padEnd(14)} ${r.case}: ${r.opsPerSec}/s p50 ${r.p50Ms} ms; ${r.note ?? ""}`);
  } finally {
    await db.usageHour.deleteMany({ where: { tenantId } });
    await db.usageRollupMinute.deleteMany({ where: { prefix } });
    await db.$disconnect();
  }
}
