/**
 * Rounds: a part whose figures are compared with each other (Sluice against a peer or a ceiling)
 * runs its cases BENCH_ROUNDS times over (default 3), and each case's row is the median of its
 * rounds. On a shared machine the speed of the CPU swings from one minute to the next (the same
 * bare ceiling measured 18,716 and 30,973 req/s in two runs of one day); a case measured once,
 * minutes away from the baseline it is divided by, takes its ratio from that swing. Measured in
 * every round, the case and its baseline are a few seconds apart each time, and one bad window
 * moves a median of three no further than the round beside it.
 *
 * `medianRows(rounds)`: per case (subject, case, concurrency; in the order of the first round),
 * each measured column is the median of its rounds (NaN columns stay NaN), errors and fail-mode
 * activations are summed, the RSS peak is the highest, and the note says how many rounds and their ops/s range.
 */
import type { RunRow } from "./types";

export const DEFAULT_ROUNDS = 3;

/** BENCH_ROUNDS: a whole number of rounds, at least 1. */
export function roundsFromEnv(raw = process.env.BENCH_ROUNDS): number {
  if (raw === undefined || raw === "") return DEFAULT_ROUNDS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`BENCH_ROUNDS must be a whole number >= 1, got "${raw}"`);
  return value;
}

/** The median of the finite values (for an even count, the mean of the two middle ones); NaN when there is none. */
export function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const caseKey = (r: RunRow): string => `${r.subject}\u0000${r.case}\u0000${r.concurrency}`;

export function medianRows(rounds: RunRow[][]): RunRow[] {
  const groups = new Map<string, RunRow[]>();
  for (const rows of rounds)
    for (const row of rows) {
      const group = groups.get(caseKey(row));
      if (group) group.push(row);
      else groups.set(caseKey(row), [row]);
    }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    if (group.length === 1) return first;
    const of = (column: (r: RunRow) => number) => median(group.map(column));
    const ops = group.map((r) => r.opsPerSec);
    const rss = group.map((r) => r.rssPeakMb).filter((x): x is number => x !== undefined);
    const activations = group.map((r) => r.failModeActivations).filter((x): x is number => x !== undefined);
    const spread = `median of ${group.length} rounds (ops/s ${Math.min(...ops)} to ${Math.max(...ops)})`;
    return {
      ...first,
      opsPerSec: Math.round(of((r) => r.opsPerSec)),
      p50Ms: of((r) => r.p50Ms),
      p99Ms: of((r) => r.p99Ms),
      refusedPct: of((r) => r.refusedPct),
      errors: group.reduce((sum, r) => sum + r.errors, 0),
      nodeCpuUsPerOp: of((r) => r.nodeCpuUsPerOp),
      redisCpuUsPerOp: of((r) => r.redisCpuUsPerOp),
      otherCpuPct: of((r) => r.otherCpuPct),
      ...(rss.length ? { rssPeakMb: Math.max(...rss) } : {}),
      ...(activations.length ? { failModeActivations: activations.reduce((a, b) => a + b, 0) } : {}),
      note: first.note ? `${first.note}; ${spread}` : spread,
    };
  });
}
