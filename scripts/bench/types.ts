/** Shapes shared by the benchmark's parts and its report (reports/bench.json). */

/** What one operation amounted to; errors include Sluice fail-open answers (Redis did not answer). */
export type Outcome = "ok" | "refused" | "error";

export interface RunRow {
  subject: string;
  case: string;
  concurrency: number;
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Share of measured operations that were refused (limit reached), in percent. */
  refusedPct: number;
  /** Operations that failed (rejected, or answered by a fail mode instead of Redis). */
  errors: number;
  /** This Node process's CPU time per operation (user + system), microseconds. */
  nodeCpuUsPerOp: number;
  /** Redis server CPU time per operation (INFO cpu, whole server), microseconds. */
  redisCpuUsPerOp: number;
  /**
   * CPU used by other processes during the window, % of one core (machine busy time minus this
   * process and Redis). A noise indicator: above ~20 the row was measured on a shared machine. Rough
   * (tick vs rusage accounting): c=1 rows read about -10 to -20 on an idle machine.
   */
  otherCpuPct: number;
  note?: string;
}

export interface MemoryRow {
  algorithm: string;
  /** INFO used_memory delta / clients: everything Redis spent, hash-table growth included. */
  bytesPerClient: number;
  /** Mean MEMORY USAGE (SAMPLES 0) of a sample of the keys: the key itself, without table overhead. */
  memoryUsagePerKey: number;
  clients: number;
  keysCreated: number;
  exampleKey: string;
  note?: string;
}

export interface Goal {
  goal: string;
  value: number;
  target: number;
  met: boolean;
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  totalMemGiB: number;
  node: string;
  redisVersion: string;
}

export interface BenchReport {
  machine: MachineInfo;
  generatedAt: string;
  settings: { benchSeconds: number; warmupSeconds: number; redisUrl: string };
  runs: RunRow[];
  memory: MemoryRow[];
  goals: Goal[];
}
