/**
 * Metering at scale (`npm run bench -- --only usage`, issue 33 "Speed and scale"), in a throwaway
 * database (usageData.ts) that Postgres fills itself: BENCH_USAGE_KEYS keys of one tenant (default
 * 1,000,000) active in a 31-day month, each BENCH_USAGE_HOURS hours of it (default 4), a request row
 * and a rule row per active hour; the month's closed days rolled up into `UsageDay` by the real day
 * roll-up (usageDays.ts). Rows (`part: usage`):
 * - `usage-storage` `hours` / `days`: Postgres rows and bytes per key-month (pg_total_relation_size:
 *   table and indexes) of `UsageHour` and `UsageDay`; the note adds what a key costs over the
 *   retention (hours USAGE_HOUR_RETENTION_DAYS, days USAGE_RETENTION_DAYS).
 * - `usage-rollup` `minute-<n>-keys`: the real minute roll-up (usageRollup.ts) of one minute hash in
 *   which BENCH_USAGE_MINUTE_KEYS keys (default 10,000) were active: wall time and Node CPU, and that
 *   divided by the minute's 60 s: the roll-up's CPU per second of traffic (Postgres's own CPU is not
 *   in Node's; the wall time bounds it, one statement at a time).
 * - `usage-rollup` `day`: the day roll-up of one closed day of the data set, wall time per day and
 *   per second of traffic.
 * - `usage-query` `31d-one-key` and `31d-tenant-wide`: the usage API's query (usageQuery.ts) over
 *   the last 31 days (30 whole days from `UsageDay`, the edges from `UsageHour`): one key by day, and
 *   the whole tenant by day and key; p50/p99 after a warm-up. Goals (usageGoals.ts): under 100 ms
 *   and under 1 s at 1,000,000 keys.
 * The notes give the key count run and how long the data set took to make.
 */
import { randomBytes } from "node:crypto";
import { DAY_MS, GLOBAL_SCOPE, HOUR_MS, MINUTE_MS, monitoringKeys } from "../../lib/monitoring/record/monitoringKeys";
import { usageField } from "../../lib/monitoring/record/usageTally";
import { rollUpDay } from "../../lib/monitoring/usage/usageDays";
import { queryUsage } from "../../lib/monitoring/usage/usageQuery";
import type { UsageInput } from "../../lib/monitoring/usage/usageParams";
import { USAGE_HOUR_RETENTION_DAYS, USAGE_RETENTION_DAYS, UsageRollup } from "../../lib/monitoring/usage/usageRollup";
import type { BenchContext } from "./context";
import { round } from "./measure";
import type { RunRow } from "./types";
import { generateMonth, HOURS_ENV, keyId, MONTH_HOURS, RULE_REF, tableSize, throwawayUsageDatabase } from "./usageData";

const KEYS = Number(process.env.BENCH_USAGE_KEYS || 1_000_000);
const HOURS = Number(process.env[HOURS_ENV] || 4);
const MINUTE_KEYS = Number(process.env.BENCH_USAGE_MINUTE_KEYS || 10_000);
const QUERY_RUNS = { "31d-one-key": 20, "31d-tenant-wide": 5 } as const;

const newTenantId = () => randomBytes(6).toString("hex").slice(0, 10);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
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

const seconds = (ms: number) => `${round(ms / 1000, 1)} s`;

export async function usageCases(ctx: BenchContext): Promise<void> {
  if (!(Number.isSafeInteger(KEYS) && KEYS > 0 && HOURS >= 1 && HOURS <= MONTH_HOURS))
    throw new Error("usage bench: BENCH_USAGE_KEYS and BENCH_USAGE_HOURS must be positive integers");
  const started = performance.now();
  const { db, drop } = await throwawayUsageDatabase();
  const prefix = `${ctx.prefix}usage:`;
  try {
    const tenantId = newTenantId();
    const now = Date.now();
    const endHour = Math.floor(now / HOUR_MS);
    const requests = await generateMonth(db, tenantId, KEYS, HOURS, endHour);
    const generatedMs = performance.now() - started;

    // The month's closed days, rolled up as the roll-up does when each closes.
    const firstDay = Math.floor(((endHour - MONTH_HOURS) * HOUR_MS) / DAY_MS);
    const lastDay = UsageRollup.lastClosedDay(now);
    const dayTimes: number[] = [];
    for (let day = firstDay; day <= lastDay; day++) {
      const at = performance.now();
      await rollUpDay(db, day);
      dayTimes.push(performance.now() - at);
    }
    const made = `${KEYS} keys x ${HOURS} active hours of 31 days (${requests} requests), made in ${seconds(performance.now() - started)} (${seconds(generatedMs)} of it the hours)`;

    const hours = await tableSize(db, "UsageHour");
    const days = await tableSize(db, "UsageDay");
    const perKey = (n: number) => round(n / KEYS, 2);
    const keptBytes = perKey((hours.bytes * USAGE_HOUR_RETENTION_DAYS) / 31 + (days.bytes * USAGE_RETENTION_DAYS) / 31);
    for (const [name, size, kept] of [
      ["hours", hours, USAGE_HOUR_RETENTION_DAYS],
      ["days", days, USAGE_RETENTION_DAYS],
    ] as const)
      ctx.rows.push(
        row("usage-storage", name, {
          note: `${name === "hours" ? "UsageHour" : "UsageDay"} (kept ${kept} days): ${size.rows} rows, ${perKey(size.rows)} rows and ${perKey(size.bytes)} bytes per key-month (table and indexes); a key active like this every month keeps ${keptBytes} bytes (hours and days); ${made}`,
        }),
      );
    const dayMs = dayTimes.reduce((a, b) => a + b, 0) / Math.max(1, dayTimes.length);
    ctx.rows.push(
      row("usage-rollup", "day", {
        opsPerSec: round(1000 / dayMs, 3),
        p50Ms: round(
          percentile(
            [...dayTimes].sort((a, b) => a - b),
            50,
          ),
          1,
        ),
        note: `day roll-up of ${dayTimes.length} closed days, mean ${round(dayMs, 1)} ms a day: ${round((dayMs * 1000) / 86_400, 2)} µs wall per second of traffic (Postgres)`,
      }),
    );

    // One minute hash of MINUTE_KEYS keys, rolled up by the real roll-up; a first run does its day
    // catch-up and clean-up, so the measured run is the minute alone.
    const minuteTenant = newTenantId();
    const clock = () => Date.now() + 2 * MINUTE_MS;
    const rollup = new UsageRollup({ redis: ctx.admin, prefix, db: () => db, clock, log: () => undefined });
    await rollup.runOnce();
    const keys = monitoringKeys(prefix, GLOBAL_SCOPE);
    const minuteKey = keys.usage(Math.floor(Date.now() / MINUTE_MS) - 1);
    const pipeline = ctx.admin.pipeline();
    for (let i = 0; i < MINUTE_KEYS; i++)
      for (const rule of ["*", RULE_REF]) {
        const cell = { tenantId: minuteTenant, hour: endHour, caller: keyId(i), rule, tier: "" };
        pipeline.hincrby(minuteKey, usageField(cell, "a"), 3);
        pipeline.hincrby(minuteKey, usageField(cell, "u"), 3);
      }
    pipeline.pexpire(minuteKey, HOUR_MS);
    await pipeline.exec();
    const cpu = process.cpuUsage();
    const at = performance.now();
    const outcome = await rollup.runOnce();
    const wallMs = performance.now() - at;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    ctx.rows.push(
      row("usage-rollup", `minute-${MINUTE_KEYS}-keys`, {
        opsPerSec: Math.round(outcome.cells / (wallMs / 1000)),
        p50Ms: round(wallMs, 1),
        nodeCpuUsPerOp: round((cpuMs * 1000) / Math.max(1, outcome.cells), 3),
        note: `one minute with ${MINUTE_KEYS} active keys (${outcome.cells} cells): ${round(wallMs, 1)} ms wall, ${round(cpuMs, 1)} ms Node CPU, so ${round(cpuMs / 60, 2)} ms Node CPU and ${round(wallMs / 60, 2)} ms wall per second of traffic`,
      }),
    );

    const from = new Date(now - 31 * DAY_MS);
    const to = new Date(now);
    const cases: [keyof typeof QUERY_RUNS, UsageInput][] = [
      ["31d-one-key", { from, to, granularity: "day", key: keyId(Math.floor(KEYS / 2)) }],
      ["31d-tenant-wide", { from, to, granularity: "day", groupBy: "key" }],
    ];
    for (const [name, input] of cases) {
      let answered = (await queryUsage(db, tenantId, input)).length;
      const times: number[] = [];
      for (let r = 0; r < QUERY_RUNS[name]; r++) {
        const at = performance.now();
        answered = (await queryUsage(db, tenantId, input)).length;
        times.push(performance.now() - at);
      }
      times.sort((a, b) => a - b);
      ctx.rows.push(
        row("usage-query", name, {
          opsPerSec: round(1000 / (times.reduce((a, b) => a + b, 0) / times.length), 2),
          p50Ms: round(percentile(times, 50), 3),
          p99Ms: round(percentile(times, 99), 3),
          note: `usage API query, last 31 days by day${input.key ? " of one key" : " and key"}, over ${KEYS} keys' month: ${answered} rows answered, ${QUERY_RUNS[name]} runs; goal ${name === "31d-one-key" ? "< 100 ms" : "< 1 s"} at 1,000,000 keys`,
        }),
      );
    }
    for (const r of ctx.rows.filter((x) => x.part === "usage"))
      console.log(`  ${r.subject.padEnd(14)} ${r.case}: p50 ${r.p50Ms} ms; ${r.note ?? ""}`);
  } finally {
    await drop();
  }
}
