/**
 * The measuring loop of the pure-CPU parts (accessListCases.ts, identity/hostLookup.ts,
 * identity/callerCost.ts): `lookup(i)` called over inputs 0 .. count-1 in turn, one after the other
 * (an asynchronous one awaited before the next), for the warm-up and then the measured window,
 * timed in batches of BATCH calls (a single call is shorter than the clock's useful resolution).
 * Answers calls per second, the p50/p99 of the batches as ms per call, this process's CPU per call
 * in µs, and how many calls answered true (matched).
 */
import { performance } from "node:perf_hooks";
import { round, type MeasureSettings } from "./measure";
import type { RunRow } from "./types";

export const BATCH = 1_000;

export interface LookupLoop {
  lookups: number;
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerOp: number;
  matched: number;
}

export async function lookupLoop(
  settings: MeasureSettings,
  count: number,
  lookup: (i: number) => boolean | Promise<boolean>,
): Promise<LookupLoop> {
  const warmUntil = performance.now() + settings.warmupMs;
  for (let i = 0; performance.now() < warmUntil; i = (i + 1) % count) {
    const r = lookup(i);
    if (typeof r !== "boolean") await r;
  }
  const perLookupMs: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let lookups = 0;
  let matched = 0;
  let at = 0;
  while (performance.now() - started < settings.durationMs) {
    const t0 = performance.now();
    for (let j = 0; j < BATCH; j++) {
      const r = lookup(at);
      if (typeof r === "boolean" ? r : await r) matched++;
      at = at + 1 === count ? 0 : at + 1;
    }
    perLookupMs.push((performance.now() - t0) / BATCH);
    lookups += BATCH;
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  perLookupMs.sort((x, y) => x - y);
  const p = (q: number) => perLookupMs[Math.min(perLookupMs.length - 1, Math.floor(q * perLookupMs.length))]!;
  return {
    lookups,
    opsPerSec: Math.round((lookups * 1000) / ms),
    p50Ms: p(0.5),
    p99Ms: p(0.99),
    cpuUsPerOp: (cpu.user + cpu.system) / lookups,
    matched,
  };
}

/**
 * A pure-CPU row of `m`: ops/s = calls per second, p50/p99 = ms per call (batch medians), `CPU µs/op`
 * this process's; `refused %` is the share of calls that answered true (the note says what that means).
 */
export function lookupRow(subject: string, name: string, m: LookupLoop, note: string): RunRow {
  return {
    subject,
    case: name,
    concurrency: 1,
    opsPerSec: m.opsPerSec,
    p50Ms: round(m.p50Ms, 6),
    p99Ms: round(m.p99Ms, 6),
    refusedPct: m.lookups > 0 ? round((100 * m.matched) / m.lookups, 2) : 0,
    errors: 0,
    nodeCpuUsPerOp: round(m.cpuUsPerOp, 3),
    redisCpuUsPerOp: 0,
    otherCpuPct: 0,
    note,
  };
}
