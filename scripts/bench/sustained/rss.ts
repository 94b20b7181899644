/**
 * Resident memory of a server process: `rssMiB(pid)` reads VmRSS from /proc (Linux), and
 * `rssTrend` compares the mean of the first and of the last `edge` samples of a run (at most half
 * the samples each, so the two never overlap): the "is memory flat" figure of the sustained part.
 * A Node server's RSS is a sawtooth under load (the heap grows by megabytes a second until a major
 * GC gives it back), so those means depend on where the edges fall in the cycle; the floors (the
 * lowest sample of the first and of the last third) show whether what survives GC grows: a leak.
 */
import { readFile } from "node:fs/promises";

export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

export interface RssTrend {
  firstMiB: number;
  lastMiB: number;
  /** (last - first) / first, in percent; negative when memory shrank. */
  growthPct: number;
  /** Lowest sample of the first and of the last third (at least one sample each). */
  floorFirstMiB: number;
  floorLastMiB: number;
}

const mean = (values: number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

export function rssTrend(samplesMiB: readonly number[], edge = 10): RssTrend {
  const n = Math.min(edge, Math.floor(samplesMiB.length / 2));
  if (n === 0) throw new Error("rssTrend: need at least two samples");
  const firstMiB = mean(samplesMiB.slice(0, n));
  const lastMiB = mean(samplesMiB.slice(-n));
  const third = Math.max(1, Math.floor(samplesMiB.length / 3));
  return {
    firstMiB,
    lastMiB,
    growthPct: (100 * (lastMiB - firstMiB)) / firstMiB,
    floorFirstMiB: Math.min(...samplesMiB.slice(0, third)),
    floorLastMiB: Math.min(...samplesMiB.slice(-third)),
  };
}
