/** A small, complete report for the unit tests of the report's consumers (merge, table). */
import type { BenchReport, RunRow } from "./types";

export function runRow(overrides: Partial<RunRow> = {}): RunRow {
  return {
    subject: "sluice",
    case: "decide-1rule-token_bucket",
    concurrency: 256,
    opsPerSec: 60_000,
    p50Ms: 3.5,
    p99Ms: 9.25,
    refusedPct: 0,
    errors: 0,
    nodeCpuUsPerOp: 10,
    redisCpuUsPerOp: 12,
    otherCpuPct: 5,
    ...overrides,
  };
}

export function benchReport(overrides: Partial<BenchReport> = {}): BenchReport {
  return {
    machine: {
      cpus: 2,
      cpuModel: "Test CPU",
      totalMemGiB: 8,
      node: "v20.20.0",
      redisVersion: "7.0.15",
      postgresVersion: "16.4",
      loadAverage: [0.5, 0.25, 0.1],
    },
    generatedAt: "2026-11-23T12:00:00.000Z",
    settings: { benchSeconds: 3, warmupSeconds: 0.5, redisUrl: "redis://127.0.0.1:6379" },
    runs: [
      runRow({ part: "limiter" }),
      runRow({ subject: "sluice-http", case: "echo-protected", concurrency: 100, opsPerSec: 300, part: "http" }),
    ],
    memory: [
      {
        algorithm: "fixed_window",
        bytesPerClient: 138,
        memoryUsagePerKey: 72,
        clients: 10_000,
        keysCreated: 10_000,
        exampleKey: "s:{t}fw1k",
      },
    ],
    partsRunAt: {
      limiter: "2026-11-23T12:00:00.000Z",
      http: "2026-11-23T12:00:00.000Z",
      memory: "2026-11-23T12:00:00.000Z",
    },
    goals: [],
    ...overrides,
  };
}
