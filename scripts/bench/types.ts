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
  /** Peak RSS of the Sluice server process during the row's load, MB (data-plane rows). */
  rssPeakMb?: number;
  /** Rules answered by their failMode during the measured window (servers' /api/metrics; HTTP rows only). */
  failModeActivations?: number;
  /** The part that measured it (run.ts PARTS), so a partial run replaces only its own rows. */
  part?: string;
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
  /** How value compares with target when met; "at least" when absent (the ratio goals). */
  direction?: "at least" | "at most" | "exactly";
  met: boolean;
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  totalMemGiB: number;
  node: string;
  redisVersion: string;
  postgresVersion: string;
  /** 1, 5 and 15 minute load averages when the run started: other processes on the machine skew every figure. */
  loadAverage?: number[];
}

export interface BenchReport {
  machine: MachineInfo;
  generatedAt: string;
  /** rounds: how many times the limiter and data-plane parts ran (each row the median; absent in older reports: 1). */
  settings: { benchSeconds: number; warmupSeconds: number; rounds?: number; redisUrl: string };
  runs: RunRow[];
  memory: MemoryRow[];
  accuracy?: AccuracyReport;
  sustained?: SustainedReport;
  burst?: BurstReport;
  /** When each part last ran (ISO time): a partial run (BENCH_ONLY) updates only its own parts. */
  partsRunAt: Record<string, string>;
  goals: Goal[];
}

/** Per client class (steady, bursty, abusive). */
export type ByClientClass<T> = Record<"steady" | "bursty" | "abusive", T>;

export interface TraceSummary {
  seed: number;
  requests: number;
  durationMs: number;
  limit: number;
  windowMs: number;
  clients: ByClientClass<number>;
  requestsByClass: ByClientClass<number>;
}

/** sliding_window against the exact sliding_log, decision by decision, on one trace. */
export interface SlidingWindowVsLog {
  requests: number;
  differing: number;
  differingPct: number;
  /** `slidingWindowOnly`: admitted by sliding_window and refused by sliding_log (the rest of `differing` the reverse). */
  byClass: ByClientClass<{ requests: number; differing: number; differingPct: number; slidingWindowOnly: number }>;
  /** The same figure over the steady and bursty clients only (no abusive client). */
  withoutAbusivePct: number;
}

/** The accuracy part (scripts/bench/accuracyCases.ts). Percentages are of decisions. */
export interface AccuracyReport {
  trace: TraceSummary;
  /** sliding_window against the exact sliding_log on the stress mix (trace above). */
  slidingWindowVsLog: SlidingWindowVsLog;
  /** The same comparison on the realistic mix (about 1 % of clients over their limit). */
  realistic?: { trace: TraceSummary; slidingWindowVsLog: SlidingWindowVsLog; worstSpanRatio: number; seconds: number };
  algorithms: {
    algorithm: string;
    /** Worst window-length span of any client: admitted / limit. */
    worstSpanRatio: number;
    worstSpanClass: string;
    worstSpanByClass: ByClientClass<number>;
    admittedByClass: ByClientClass<number>;
    /** 3 x limit requests, one per ms, centred on a window boundary: admitted / limit. */
    boundaryBurstFactor: number;
  }[];
  modelCheck: { requests: number; compared: number; mismatches: number; examples: string[] };
  seconds: { generate: number; replay: number; modelCheck: number; total: number };
}

/** The sustained-load part (scripts/bench/sustainedCases.ts). */
export interface SustainedReport {
  seconds: number;
  connectionsPerInstance: number;
  instances: {
    name: string;
    /** Requests/s of this instance at full load (both instances loaded together). */
    maxReqPerSec: number;
    targetReqPerSec: number;
    achievedReqPerSec: number;
    requests: number;
    p50Ms: number;
    p99Ms: number;
    non2xx: number;
    errors: number;
    timeouts: number;
    /** Rules answered by their failMode during the sustained phase (the server's /api/metrics). */
    failModeActivations?: number;
    /** RSS, MiB: mean of the first and of the last 10 one-second samples, and growth in %. */
    rssFirstMiB: number;
    rssLastMiB: number;
    rssGrowthPct: number;
    /** Lowest RSS sample of the first and of the last third of the run (what survives GC). */
    rssFloorFirstMiB?: number;
    rssFloorLastMiB?: number;
    rssSamplesMiB: number[];
  }[];
  /** The bound the memory goal uses: growth of at most this many percent. */
  rssGrowthBoundPct: number;
}

/** The exactness-under-load part (scripts/bench/burstCases.ts). */
export interface BurstReport {
  limit: number;
  requests: number;
  /** `redisErrors`: why the servers' Redis calls failed, by kind (sluice_redis_errors_total). */
  rounds: {
    round: string;
    admitted: number;
    unavailable: number;
    failModeActivations: number;
    redisErrors?: Record<string, number>;
  }[];
}
