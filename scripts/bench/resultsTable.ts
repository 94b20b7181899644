/**
 * docs/benchmarks.md, regenerated from the report by every `npm run bench` (a partial run renders
 * the merged report, so the other parts' figures stay): the machine, every goal with met/missed,
 * and every case. `renderResultsTable` is pure; `writeResultsTable` writes the file.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { accuracySection } from "./accuracySection";
import { markdownTable } from "./markdownTable";
import { partOf } from "./reportMerge";
import type { BenchReport } from "./types";

export const DEFAULT_TABLE_FILE = path.join(process.cwd(), "docs", "benchmarks.md");

function machineSection(r: BenchReport): string {
  const m = r.machine;
  const parts = Object.entries(r.partsRunAt ?? {}).map(
    ([name, at]) => `${name} ${at.slice(0, 16).replace("T", " ")} UTC`,
  );
  return [
    "## Machine",
    "",
    markdownTable(
      ["", ""],
      [
        ["CPU", `${m.cpuModel}, ${m.cpus} cores`],
        ["Memory", `${m.totalMemGiB} GiB`],
        ["Node", m.node],
        ["Redis", m.redisVersion],
        ["Postgres", m.postgresVersion ?? "not recorded"],
        [
          "Load average at the start (1, 5, 15 min)",
          m.loadAverage ? `${m.loadAverage.join(", ")} (other processes share the ${m.cpus} cores)` : "not recorded",
        ],
        [
          "Report",
          `${r.generatedAt.slice(0, 16).replace("T", " ")} UTC; ${r.settings.benchSeconds} s per throughput case after ${r.settings.warmupSeconds} s warm-up${(r.settings.rounds ?? 1) > 1 ? `; limiter, data-plane, identity and gRPC rows: the median of ${r.settings.rounds} rounds` : ""}`,
        ],
        ["Parts last run", parts.join("; ") || "not recorded"],
      ],
    ),
  ].join("\n");
}

function goalsSection(r: BenchReport): string {
  return [
    "## Goals",
    "",
    markdownTable(
      ["goal", "value", "target", "met"],
      r.goals.map((g) => [g.goal, g.value, `${g.direction ?? "at least"} ${g.target}`, g.met ? "met" : "**missed**"]),
    ),
  ].join("\n");
}

function runsSection(r: BenchReport): string {
  if (r.runs.length === 0) return "";
  return [
    "## Throughput and latency",
    "",
    "`sluice-http`, `dataplane` and `identity` rows are requests per second through a server process and `grpc` rows ShouldRateLimit calls per second to one; `access` and identity's `host-lookup-*` rows are lookups per second in one process; the others are limiter calls per second in one process. `CPU µs/op`: that process's CPU time (user + system) per operation, the bench's own for limiter and lookup rows, the server's for `dataplane`, `identity` and `grpc` rows; `Redis µs/op`: the Redis server's. Per operation, they hold up better than ops/s when the machine's speed swings. `other CPU %` flags rows measured while other processes used the machine.",
    "",
    markdownTable(
      [
        "part",
        "subject",
        "case",
        "concurrency",
        "ops/s",
        "p50 ms",
        "p99 ms",
        "refused %",
        "errors",
        "CPU µs/op",
        "Redis µs/op",
        "other CPU %",
        "note",
      ],
      r.runs.map((x) => [
        partOf(x),
        x.subject,
        x.case,
        x.concurrency,
        x.opsPerSec,
        x.p50Ms,
        x.p99Ms,
        x.refusedPct,
        x.errors,
        x.nodeCpuUsPerOp,
        x.redisCpuUsPerOp,
        x.otherCpuPct,
        [x.note, x.rssPeakMb === undefined ? undefined : `Sluice RSS peak ${x.rssPeakMb} MB`]
          .filter(Boolean)
          .join("; "),
      ]),
    ),
  ].join("\n");
}

function memorySection(r: BenchReport): string {
  if (r.memory.length === 0) return "";
  return [
    "## Redis memory per client",
    "",
    markdownTable(
      [
        "algorithm",
        "bytes per client (used_memory delta)",
        "bytes per key (MEMORY USAGE)",
        "clients",
        "keys",
        "example key",
      ],
      r.memory.map((m) => [
        m.algorithm,
        m.bytesPerClient,
        m.memoryUsagePerKey,
        m.clients,
        m.keysCreated,
        `\`${m.exampleKey}\``,
      ]),
    ),
  ].join("\n");
}

function sustainedSection(r: BenchReport): string {
  const s = r.sustained;
  if (!s) return "";
  return [
    "## Sustained load",
    "",
    `Two production servers on one Redis and one Postgres, \`GET /api/v1/echo\` with one generous rule, ${s.connectionsPerInstance} connections each; maximum measured with both loaded together, then ${s.seconds} s at 80 % of it. RSS sampled every second; it is a sawtooth (the heap grows until a major GC), so the floors say more about a leak than the 10 s means.`,
    "",
    markdownTable(
      [
        "instance",
        "max req/s",
        "target req/s",
        "achieved req/s",
        "requests",
        "p50 ms",
        "p99 ms",
        "non-2xx",
        "errors",
        "timeouts",
        "fail-mode activations",
        "RSS first 10 s MiB",
        "RSS last 10 s MiB",
        "RSS growth %",
        "RSS floor, first → last third, MiB",
      ],
      s.instances.map((i) => [
        i.name,
        i.maxReqPerSec,
        i.targetReqPerSec,
        i.achievedReqPerSec,
        i.requests,
        i.p50Ms,
        i.p99Ms,
        i.non2xx,
        i.errors,
        i.timeouts,
        i.failModeActivations ?? "not recorded",
        i.rssFirstMiB,
        i.rssLastMiB,
        i.rssGrowthPct,
        i.rssFloorFirstMiB === undefined ? "not recorded" : `${i.rssFloorFirstMiB} → ${i.rssFloorLastMiB}`,
      ]),
    ),
  ].join("\n");
}

function burstSection(r: BenchReport): string {
  const b = r.burst;
  if (!b) return "";
  return [
    "## Exactness under load (burst)",
    "",
    `Two freshly started servers on one Redis, one \`sliding_log\` rule of ${b.limit} per hour with failMode \`open\`, ${b.requests} requests at once alternating between them; the first round right after both reported ready, each later round on a fresh key. A fail-mode activation would admit a request beyond the limit.`,
    "",
    markdownTable(
      ["round", "admitted", "503", "fail-mode activations", "failed Redis calls by kind"],
      b.rounds.map((x) => [
        x.round,
        x.admitted,
        x.unavailable,
        x.failModeActivations,
        Object.entries(x.redisErrors ?? {})
          .map(([k, n]) => `${k} ${n}`)
          .join(", ") || "none",
      ]),
    ),
  ].join("\n");
}

export function renderResultsTable(report: BenchReport): string {
  const sections = [
    machineSection,
    goalsSection,
    runsSection,
    memorySection,
    accuracySection,
    sustainedSection,
    burstSection,
  ]
    .map((f) => f(report))
    .filter(Boolean);
  return [
    "# Benchmark results",
    "",
    "<!-- Generated by `npm run bench` from reports/bench.json (scripts/bench/resultsTable.ts). Do not edit: rerun the benchmark. -->",
    "",
    "How the benchmark works and what the figures mean: [benchmarking-method.md](benchmarking-method.md).",
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}

export async function writeResultsTable(report: BenchReport, file = DEFAULT_TABLE_FILE): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, renderResultsTable(report));
  return file;
}
