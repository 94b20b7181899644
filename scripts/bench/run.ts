/**
 * The benchmark runner. A part is a named async function that measures cases with
 * `runCase(ctx, ...)` (rows in `ctx.rows`) or fills its own section (`ctx.accuracy`,
 * `ctx.sustained`). Everything runs in one process against one Redis, under this run's own
 * prefixes, which are deleted at the end whatever happens (never FLUSHALL/FLUSHDB).
 * The limiter, data-plane, identity and gRPC parts run BENCH_ROUNDS times (default 3), each row the median of its
 * rounds (rounds.ts): their goals are ratios of one row to another.
 * A partial run (BENCH_ONLY) merges into the existing reports/bench.json: it replaces only what its
 * parts measured and keeps the other parts' figures (reportMerge.ts); docs/benchmarks.md is then
 * regenerated from the merged report. With no earlier report to merge into, a partial run writes
 * its table to reports/benchmarks-partial.md instead, leaving docs/benchmarks.md as it was.
 */
import path from "node:path";
import { accessListCases } from "./accessListCases";
import { usageCases } from "./usageCases";
import { accuracyCases } from "./accuracyCases";
import { burstCases } from "./burstCases";
import { createContext, deleteByPrefix, type BenchContext } from "./context";
import { dataplaneCases } from "./dataplaneCases";
import { computeGoals } from "./goals";
import { hotSubjectCases } from "./hotCases";
import { grpcCases } from "./grpcCases";
import { httpCases } from "./httpCases";
import { identityCases } from "./identityCases";
import { autoPipeliningCases, sluiceCases } from "./limiterCases";
import { memoryPrefix, memoryRows } from "./memory";
import { incrCeilingCase, rlfCases } from "./peerCases";
import { machineInfo, printReport, readReport, writeReport } from "./report";
import { mergeReports } from "./reportMerge";
import { writeResultsTable } from "./resultsTable";
import { medianRows, roundsFromEnv } from "./rounds";
import { simulatorCases } from "./simulatorCases";
import { sustainedCases } from "./sustainedCases";
import type { BenchReport } from "./types";

export type BenchPart = (ctx: BenchContext) => Promise<void>;

/** Where a partial run with no earlier report (reports/bench.json) writes its table. */
export const PARTIAL_TABLE_FILE = path.join(process.cwd(), "reports", "benchmarks-partial.md");

/** The parts by name, in the order a full run runs them (after the memory rows, measured on a quiet Redis). */
export const PARTS = {
  limiter: [sluiceCases, rlfCases, hotSubjectCases, incrCeilingCase, autoPipeliningCases],
  simulator: [simulatorCases],
  http: [httpCases],
  dataplane: [dataplaneCases],
  identity: [identityCases],
  grpc: [grpcCases],
  accuracy: [accuracyCases],
  sustained: [sustainedCases],
  burst: [burstCases],
  access: [accessListCases],
  usage: [usageCases],
} satisfies Record<string, BenchPart[]>;
export type PartName = keyof typeof PARTS | "memory";
/** Parts whose goals divide one of their rows by another: run in rounds, each row the median (rounds.ts). */
const ROUNDED: readonly PartName[] = ["limiter", "dataplane", "identity", "grpc"];
const PART_NAMES = [...(Object.keys(PARTS) as PartName[]), "memory"] as const;

/** Every throughput part, in order (kept for callers that add parts of their own). */
export const DEFAULT_PARTS: readonly BenchPart[] = [...PARTS.limiter, ...PARTS.simulator, ...PARTS.http];

/**
 * BENCH_ONLY: a comma-separated list of part names (limiter, simulator, http, dataplane, identity, grpc, memory, accuracy, sustained, burst, access, usage);
 * unset: everything.
 */
export function partsFromEnv(only = process.env.BENCH_ONLY): RunOptions {
  if (!only) return { only: undefined };
  const names = only
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(PART_NAMES as readonly string[]).includes(name))
      throw new Error(`BENCH_ONLY: unknown part "${name}"; parts: ${PART_NAMES.join(", ")}`);
  }
  return { only: names as PartName[] };
}

/**
 * `--only a,b` or `--only=a,b` among the command's arguments (`npm run bench -- --only identity,grpc`):
 * the same list as BENCH_ONLY, which it overrides; undefined when absent.
 */
export function onlyFromArgs(args: readonly string[]): string | undefined {
  const at = args.findIndex((a) => a === "--only" || a.startsWith("--only="));
  if (at < 0) return undefined;
  const value = args[at]!.startsWith("--only=") ? args[at]!.slice("--only=".length) : args[at + 1];
  if (!value || value.startsWith("--")) throw new Error("--only needs a comma-separated list of parts");
  return value;
}

export interface RunOptions {
  /** The parts to run; undefined: all of them, and the report is written afresh. */
  only?: PartName[] | undefined;
  /** Parts appended after the chosen ones (recorded as part "extra"). */
  extraParts?: readonly BenchPart[];
  /** Where to write the JSON report; false to skip writing (and the results table). */
  reportFile?: string | false;
  /** Where to write the results table; default docs/benchmarks.md. */
  tableFile?: string;
}

export async function runBench(options: RunOptions = {}): Promise<BenchReport> {
  const ctx = createContext();
  const names: PartName[] = options.only ?? [...PART_NAMES];
  const runAt = new Date().toISOString();
  try {
    await ctx.admin.connect();
    const machine = await machineInfo(ctx.admin);
    console.log(
      `Sluice benchmark: parts ${names.join(", ")}; prefix ${ctx.prefix}, ${ctx.settings.durationMs / 1000} s per case after ${ctx.settings.warmupMs / 1000} s warm-up`,
    );
    let memory: BenchReport["memory"] = [];
    if (names.includes("memory")) {
      console.log("Memory (10,000 clients, one request each):");
      memory = await memoryRows(ctx);
    }
    const rounds = roundsFromEnv();
    for (const name of names) {
      if (name === "memory") continue;
      const before = ctx.rows.length;
      const times = ROUNDED.includes(name) ? rounds : 1;
      const measured = [];
      for (let round = 1; round <= times; round++) {
        console.log(`Part ${name}${times > 1 ? `, round ${round} of ${times}` : ""}:`);
        for (const part of PARTS[name]) await part(ctx);
        measured.push(ctx.rows.splice(before));
      }
      ctx.rows.push(...medianRows(measured));
      for (const row of ctx.rows.slice(before)) row.part = name;
    }
    for (const part of options.extraParts ?? []) {
      const before = ctx.rows.length;
      await part(ctx);
      for (const row of ctx.rows.slice(before)) row.part = "extra";
    }
    const fresh: BenchReport = {
      machine,
      generatedAt: new Date().toISOString(),
      settings: {
        benchSeconds: ctx.settings.durationMs / 1000,
        warmupSeconds: ctx.settings.warmupMs / 1000,
        rounds,
        redisUrl: ctx.url.replace(/\/\/[^@/]*@/, "//***@"),
      },
      runs: ctx.rows,
      memory,
      ...(ctx.accuracy ? { accuracy: ctx.accuracy } : {}),
      ...(ctx.sustained ? { sustained: ctx.sustained } : {}),
      ...(ctx.burst ? { burst: ctx.burst } : {}),
      partsRunAt: Object.fromEntries(names.map((n) => [n, runAt])),
      goals: [],
    };
    const previous = options.only && options.reportFile !== false ? await readReport(options.reportFile) : undefined;
    const report = previous ? mergeReports(previous, fresh, names) : fresh;
    report.goals = computeGoals(report);
    printReport(report);
    if (options.reportFile !== false) {
      console.log(`Wrote ${await writeReport(report, options.reportFile)}`);
      // A partial run with no report to merge into knows only its own parts: written over
      // docs/benchmarks.md, its table would drop every other part's figures.
      const tableFile = options.only && !previous ? (options.tableFile ?? PARTIAL_TABLE_FILE) : options.tableFile;
      if (tableFile === PARTIAL_TABLE_FILE)
        console.log(
          `No earlier report to merge into: the table of this partial run goes to ${PARTIAL_TABLE_FILE}, not docs/benchmarks.md`,
        );
      console.log(`Wrote ${await writeResultsTable(report, tableFile)}`);
    }
    return report;
  } finally {
    const deleted = (await deleteByPrefix(ctx.admin, ctx.prefix)) + (await deleteByPrefix(ctx.admin, memoryPrefix()));
    console.log(`Deleted ${deleted} benchmark keys (${ctx.prefix}*, ${memoryPrefix()}*)`);
    ctx.admin.disconnect();
  }
}
