/**
 * The benchmark runner, exported so further parts (e.g. HTTP end to end) can be added: a part is an
 * async function that measures cases with `runCase(ctx, ...)`, which records rows in `ctx.rows`.
 * Everything runs in one process against one Redis, under this run's own prefixes, which are
 * deleted at the end whatever happens (never FLUSHALL/FLUSHDB).
 */
import { createContext, deleteByPrefix, type BenchContext } from "./context";
import { computeGoals } from "./goals";
import { hotSubjectCases } from "./hotCases";
import { httpCases } from "./httpCases";
import { autoPipeliningCases, sluiceCases } from "./limiterCases";
import { memoryPrefix, memoryRows } from "./memory";
import { incrCeilingCase, rlfCases } from "./peerCases";
import { machineInfo, printReport, writeReport } from "./report";
import { simulatorCases } from "./simulatorCases";
import type { BenchReport } from "./types";

export type BenchPart = (ctx: BenchContext) => Promise<void>;

/** The throughput parts, in the order they run (after the memory rows, measured on a quiet Redis). */
export const DEFAULT_PARTS: readonly BenchPart[] = [sluiceCases, rlfCases, hotSubjectCases, incrCeilingCase, autoPipeliningCases, simulatorCases, httpCases];

/**
 * `BENCH_ONLY=http`: only the HTTP part; `memory`: only the memory rows; `limiter`: the limiter and
 * peer throughput cases; `simulator`: only the rule simulator's replay.
 */
export function partsFromEnv(): { parts: readonly BenchPart[]; memory: boolean } {
  const only = process.env.BENCH_ONLY;
  if (!only) return { parts: DEFAULT_PARTS, memory: true };
  if (only === "http") return { parts: [httpCases], memory: false };
  if (only === "memory") return { parts: [], memory: true };
  if (only === "limiter") return { parts: DEFAULT_PARTS.filter((part) => part !== httpCases && part !== simulatorCases), memory: false };
  if (only === "simulator") return { parts: [simulatorCases], memory: false };
  throw new Error(`BENCH_ONLY must be "http", "memory", "limiter" or "simulator", got "${only}"`);
}

export interface RunOptions {
  parts?: readonly BenchPart[];
  /** Parts appended after the default ones. */
  extraParts?: readonly BenchPart[];
  memory?: boolean;
  /** Where to write the JSON report; false to skip writing. */
  reportFile?: string | false;
}

export async function runBench(options: RunOptions = {}): Promise<BenchReport> {
  const ctx = createContext();
  const parts = [...(options.parts ?? DEFAULT_PARTS), ...(options.extraParts ?? [])];
  try {
    await ctx.admin.connect();
    const machine = await machineInfo(ctx.admin);
    console.log(`Sluice benchmark: prefix ${ctx.prefix}, ${ctx.settings.durationMs / 1000} s per case after ${ctx.settings.warmupMs / 1000} s warm-up`);
    console.log("Memory (10,000 clients, one request each):");
    const memory = options.memory === false ? [] : await memoryRows(ctx);
    console.log("Throughput:");
    for (const part of parts) await part(ctx);
    const report: BenchReport = {
      machine,
      generatedAt: new Date().toISOString(),
      settings: { benchSeconds: ctx.settings.durationMs / 1000, warmupSeconds: ctx.settings.warmupMs / 1000, redisUrl: ctx.url.replace(/\/\/[^@/]*@/, "//***@") },
      runs: ctx.rows,
      memory,
      goals: computeGoals(ctx.rows, memory),
    };
    printReport(report);
    if (options.reportFile !== false) console.log(`Wrote ${await writeReport(report, options.reportFile)}`);
    return report;
  } finally {
    const deleted = (await deleteByPrefix(ctx.admin, ctx.prefix)) + (await deleteByPrefix(ctx.admin, memoryPrefix()));
    console.log(`Deleted ${deleted} benchmark keys (${ctx.prefix}*, ${memoryPrefix()}*)`);
    ctx.admin.disconnect();
  }
}
