/**
 * What the data-plane bench reads of a server process while it loads it (Linux /proc): its CPU time
 * (user + system, from /proc/<pid>/stat in clock ticks of 10 ms), so each row can give the server's
 * CPU per request, and its resident memory (VmRSS), sampled for the peak.
 */
import { readFileSync } from "node:fs";
import { round } from "../measure";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The process's CPU time so far, user + system, in µs. */
export function processCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name (which may hold spaces), from field 3 (state) on.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime: fields 14 and 15
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? round(Number(match[1]) / 1024, 1) : Number.NaN;
}

/** Samples the RSS of process `pid` every 500 ms while `run` runs; the peak in MB. */
export async function withRssPeak<T>(pid: number | undefined, run: () => Promise<T>): Promise<[T, number]> {
  let peak = 0;
  const sampler = pid === undefined ? undefined : setInterval(() => (peak = Math.max(peak, rssMb(pid))), 500);
  try {
    return [await run(), peak];
  } finally {
    if (sampler) clearInterval(sampler);
  }
}
