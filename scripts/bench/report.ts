/** The report: machine facts, the readable stdout tables, and reports/bench.json. */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Redis } from "ioredis";
import pg from "pg";
import { BENCH_DATABASE_URL, infoField } from "./context";
import type { BenchReport, Goal, MachineInfo, MemoryRow, RunRow } from "./types";

/** The Postgres server's version (asked of its `postgres` database, which always exists). */
async function postgresVersion(databaseUrl: string): Promise<string> {
  const url = new URL(databaseUrl);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>("SHOW server_version");
    return rows[0]?.server_version ?? "unknown";
  } catch (error) {
    return `unavailable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function machineInfo(admin: Redis): Promise<MachineInfo> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    redisVersion: await infoField(admin, "server", "redis_version"),
    postgresVersion: await postgresVersion(BENCH_DATABASE_URL),
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

function table(header: string[], lines: (string | number)[][]): string {
  const cells = [header, ...lines.map((l) => l.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const fmt = (row: string[]) =>
    row.map((c, i) => (i === 0 || i === 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(fmt)].join("\n");
}

export function runsTable(runs: RunRow[]): string {
  return table(
    [
      "subject",
      "case",
      "conc",
      "ops/s",
      "p50 ms",
      "p99 ms",
      "refused%",
      "errors",
      "node µs/op",
      "redis µs/op",
      "other CPU%",
    ],
    runs.map((r) => [
      r.subject,
      r.case,
      r.concurrency,
      r.opsPerSec,
      r.p50Ms.toFixed(3),
      r.p99Ms.toFixed(3),
      r.refusedPct,
      r.errors,
      r.nodeCpuUsPerOp,
      r.redisCpuUsPerOp,
      r.otherCpuPct,
    ]),
  );
}

export function memoryTable(memory: MemoryRow[]): string {
  return table(
    ["algorithm", "example key", "B/client", "B/key (MEMORY USAGE)", "keys"],
    memory.map((m) => [m.algorithm, m.exampleKey, m.bytesPerClient, m.memoryUsagePerKey, m.keysCreated]),
  );
}

export function goalsTable(goals: Goal[]): string {
  return table(
    ["goal", "met", "value", "target"],
    goals.map((g) => [g.goal, g.met ? "yes" : "NO", g.value, `${g.direction ?? "at least"} ${g.target}`]),
  );
}

export function printReport(report: BenchReport): void {
  const m = report.machine;
  console.log(
    `\nMachine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGiB} GiB, Node ${m.node}, Redis ${m.redisVersion}, Postgres ${m.postgresVersion}`,
  );
  console.log(
    `Window: ${report.settings.benchSeconds} s after ${report.settings.warmupSeconds} s warm-up per case; limiter and data-plane rows: median of ${report.settings.rounds ?? 1} round(s)\n`,
  );
  console.log(runsTable(report.runs) + "\n");
  console.log(memoryTable(report.memory) + "\n");
  console.log(goalsTable(report.goals) + "\n");
}

export const DEFAULT_REPORT_FILE = path.join(process.cwd(), "reports", "bench.json");

/** The previous report, or undefined when there is none (or it cannot be read as one). */
export async function readReport(file = DEFAULT_REPORT_FILE): Promise<BenchReport | undefined> {
  try {
    const report = JSON.parse(await readFile(file, "utf8")) as BenchReport;
    return Array.isArray(report.runs) ? report : undefined;
  } catch {
    return undefined;
  }
}

export async function writeReport(report: BenchReport, file = DEFAULT_REPORT_FILE): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(report, null, 2) + "\n");
  return file;
}
