/**
 * The measuring loop: `concurrency` async workers each looping `await op(seq)` for a warm-up and
 * then a measured window. Only operations completing inside the window count (throughput, latency
 * percentiles); CPU of this process and of the Redis server is sampled at the window's edges.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import type { Outcome } from "./types";

export interface MeasureSettings {
  warmupMs: number;
  durationMs: number;
}

export interface Measured {
  ops: number;
  refused: number;
  errors: number;
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  nodeCpuUsPerOp: number;
  redisCpuUsPerOp: number;
  /** CPU used by processes other than this one and Redis during the window, % of one core. */
  otherCpuPct: number;
}

/**
 * Busy CPU time of the whole machine so far, microseconds (all cores). Linux: /proc/stat, counting
 * softirq (loopback networking) and steal; elsewhere os.cpus(), which omits both.
 */
function machineBusyUs(): number {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n", 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10_000; // USER_HZ = 100
  } catch {
    return os.cpus().reduce((sum, c) => sum + (c.times.user + c.times.nice + c.times.sys + c.times.irq) * 1000, 0);
  }
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1]!;
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Runs the loop. `redisCpuSeconds` reads the Redis server's total CPU seconds (INFO cpu) on a
 * separate connection; it is called at the start and end of the measured window.
 */
export async function measure(
  op: (seq: number) => Promise<Outcome>,
  concurrency: number,
  settings: MeasureSettings,
  redisCpuSeconds: () => Promise<number>,
): Promise<Measured> {
  const t0 = process.hrtime.bigint();
  const windowStart = t0 + BigInt(Math.round(settings.warmupMs * 1e6));
  const windowEnd = windowStart + BigInt(Math.round(settings.durationMs * 1e6));
  const latencies: number[] = [];
  let seq = 0;
  let refused = 0;
  let errors = 0;

  // The window's edges are taken by the workers themselves (synchronously), not by timers: an op
  // answered from memory never yields to the event loop, so a timer would fire only at the end.
  let cpuStart: NodeJS.CpuUsage | undefined;
  let cpuUsed: NodeJS.CpuUsage | undefined;
  let redisStart: Promise<number> | undefined;
  let redisEnd: Promise<number> | undefined;
  let machine = { busyUs: 0, at: 0n };
  const open = () => {
    machine = { busyUs: machineBusyUs(), at: process.hrtime.bigint() };
    cpuStart = process.cpuUsage();
    redisStart = redisCpuSeconds().catch(() => Number.NaN);
  };
  const close = () => {
    cpuUsed = process.cpuUsage(cpuStart);
    machine = { busyUs: machineBusyUs() - machine.busyUs, at: process.hrtime.bigint() - machine.at };
    redisEnd = redisCpuSeconds().catch(() => Number.NaN);
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      const start = process.hrtime.bigint();
      if (start >= windowEnd) {
        if (!cpuUsed) close();
        return;
      }
      let outcome: Outcome;
      try {
        outcome = await op(seq++);
      } catch {
        outcome = "error";
      }
      const end = process.hrtime.bigint();
      if (end < windowStart || end > windowEnd) continue;
      if (!cpuStart) open();
      latencies.push(Number(end - start) / 1e6);
      if (outcome === "refused") refused++;
      else if (outcome === "error") errors++;
    }
  };

  await Promise.all(Array.from({ length: concurrency }, worker));
  const nodeUs = cpuUsed ? cpuUsed.user + cpuUsed.system : Number.NaN;
  const redisUs = redisStart && redisEnd ? ((await redisEnd) - (await redisStart)) * 1e6 : Number.NaN;
  const sorted = Float64Array.from(latencies).sort();
  const ops = sorted.length;
  const perOp = (us: number) => (ops > 0 ? us / ops : Number.NaN);
  return {
    ops,
    refused,
    errors,
    opsPerSec: ops / (settings.durationMs / 1000),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    nodeCpuUsPerOp: perOp(nodeUs),
    redisCpuUsPerOp: perOp(redisUs),
    otherCpuPct: (100 * (machine.busyUs - nodeUs - redisUs)) / (Number(machine.at) / 1000),
  };
}
