/**
 * Merging a partial run (BENCH_ONLY) into the previous report: the parts that ran replace their
 * own figures (rows, memory, accuracy, sustained) and everything else is kept as it was, with the
 * time each part last ran (`partsRunAt`). Machine and settings are the new run's. Goals are not
 * merged: the caller recomputes them from the merged figures.
 */
import type { BenchReport, RunRow } from "./types";

const PART_BY_SUBJECT: Record<string, string> = { "sluice-http": "http", "sluice-simulator": "simulator" };

/** Rows written before rows carried their part are recognised by their subject. */
export function partOf(row: RunRow): string {
  return row.part ?? PART_BY_SUBJECT[row.subject] ?? "limiter";
}

export function mergeReports(previous: BenchReport, fresh: BenchReport, ran: readonly string[]): BenchReport {
  const did = (name: string) => ran.includes(name);
  const merged: BenchReport = {
    ...fresh,
    runs: [...previous.runs.filter((row) => !did(partOf(row))), ...fresh.runs],
    memory: did("memory") ? fresh.memory : previous.memory,
    partsRunAt: { ...(previous.partsRunAt ?? {}), ...fresh.partsRunAt },
  };
  const accuracy = did("accuracy") ? fresh.accuracy : previous.accuracy;
  const sustained = did("sustained") ? fresh.sustained : previous.sustained;
  if (accuracy) merged.accuracy = accuracy;
  else delete merged.accuracy;
  if (sustained) merged.sustained = sustained;
  else delete merged.sustained;
  const burst = did("burst") ? fresh.burst : previous.burst;
  if (burst) merged.burst = burst;
  else delete merged.burst;
  return merged;
}
