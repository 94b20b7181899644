/**
 * What every benchmark part shares: settings from the environment, this run's own key prefix, an
 * admin connection (INFO, SCAN, UNLINK) and `runCase`, which measures one case and records its row.
 * Only keys under this run's prefixes are ever deleted (SCAN MATCH prefix* + UNLINK).
 */
import { Redis } from "ioredis";
export { deleteByPrefix, keysByPrefix } from "../../lib/redis/keysByPrefix";
import { measure, round, type MeasureSettings } from "./measure";
import type { AccuracyReport, BurstReport, Outcome, RunRow, SustainedReport } from "./types";

/** The Postgres database of the parts that start servers (http, sustained); created and migrated by them. */
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/sluice_bench";

export interface BenchContext {
  url: string;
  /** Every throughput key of this run starts with it (`sluicebench:<pid>:`). */
  prefix: string;
  settings: MeasureSettings;
  admin: Redis;
  rows: RunRow[];
  /** Set by the accuracy part (accuracyCases.ts). */
  accuracy?: AccuracyReport;
  /** Set by the sustained-load part (sustainedCases.ts). */
  sustained?: SustainedReport;
  /** Set by the exactness-under-load part (burstCases.ts). */
  burst?: BurstReport;
}

export interface CaseSpec {
  subject: string;
  case: string;
  concurrency: number;
  note?: string;
}

function secondsFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number of seconds, got "${raw}"`);
  return value;
}

export function createContext(): BenchContext {
  const url = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  return {
    url,
    prefix: `sluicebench:${process.pid}:`,
    settings: {
      warmupMs: secondsFromEnv("BENCH_WARMUP_SECONDS", 0.5) * 1000,
      durationMs: secondsFromEnv("BENCH_SECONDS", 3) * 1000,
    },
    admin: new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 }),
    rows: [],
  };
}

/** One field of `INFO <section>` as text. */
export async function infoField(admin: Redis, section: string, field: string): Promise<string> {
  const text = await admin.info(section);
  const line = text.split("\r\n").find((l) => l.startsWith(`${field}:`));
  if (line === undefined) throw new Error(`INFO ${section} has no ${field}`);
  return line.slice(field.length + 1);
}

export async function redisCpuSeconds(admin: Redis): Promise<number> {
  const [sys, user] = await Promise.all([
    infoField(admin, "cpu", "used_cpu_sys"),
    infoField(admin, "cpu", "used_cpu_user"),
  ]);
  return Number(sys) + Number(user);
}

function formatRow(r: RunRow): string {
  const extra = [
    r.refusedPct > 0 ? `refused ${r.refusedPct}%` : "",
    r.errors > 0 ? `ERRORS ${r.errors}` : "",
    r.otherCpuPct > 20 ? `other CPU ${r.otherCpuPct}%` : "",
  ].filter(Boolean);
  return `  ${r.subject.padEnd(22)} ${r.case.padEnd(44)} c=${String(r.concurrency).padEnd(4)} ${String(r.opsPerSec).padStart(8)} ops/s  p50 ${r.p50Ms.toFixed(2).padStart(7)} ms  p99 ${r.p99Ms.toFixed(2).padStart(7)} ms ${extra.join(" ")}`;
}

/** Measures one case, records its row in `ctx.rows` and prints it as it goes. */
export async function runCase(
  ctx: BenchContext,
  spec: CaseSpec,
  op: (seq: number) => Promise<Outcome>,
): Promise<RunRow> {
  const m = await measure(op, spec.concurrency, ctx.settings, () => redisCpuSeconds(ctx.admin));
  const row: RunRow = {
    subject: spec.subject,
    case: spec.case,
    concurrency: spec.concurrency,
    opsPerSec: Math.round(m.opsPerSec),
    p50Ms: round(m.p50Ms, 3),
    p99Ms: round(m.p99Ms, 3),
    refusedPct: m.ops > 0 ? round((100 * m.refused) / m.ops, 2) : 0,
    errors: m.errors,
    nodeCpuUsPerOp: round(m.nodeCpuUsPerOp, 1),
    redisCpuUsPerOp: round(m.redisCpuUsPerOp, 1),
    otherCpuPct: Math.round(m.otherCpuPct),
    ...(spec.note ? { note: spec.note } : {}),
  };
  ctx.rows.push(row);
  console.log(formatRow(row));
  return row;
}
