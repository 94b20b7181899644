/**
 * The performance goals, computed from the measured rows:
 * (a) 1-rule decide at concurrency 256 / rate-limiter-flexible consume at 256 >= 1.3
 *     (token_bucket, and the best and worst algorithm);
 * (b) 3-rule decide at 256 / rate-limiter-flexible (one rule) at 256 >= 1.0 (same three);
 * (c) hot subject: Sluice with refusal cache / rate-limiter-flexible >= 5;
 * (d) Redis bytes per client <= 150 for fixed_window, sliding_window, token_bucket, gcra;
 * (e) HTTP: protected echo >= 0.85 x unprotected req/s, and p99 at most 2 ms more;
 * (f) accuracy: sliding_window and sliding_log differ on at most 0.01 % of decisions; sliding_log
 *     never admits more than the limit in a window-length span; fixed_window's boundary burst is
 *     2.0 x; the Lua and the reference models never disagree;
 * (g) sustained load: no error and no non-2xx answer, RSS growth within the stated bound;
 * (h) the rule simulator replays 100,000 recorded requests in at most 5 s.
 */
import { ALGORITHMS, type Algorithm } from "../../lib/limiter/types";
import { round } from "./measure";
import type { AccuracyReport, BenchReport, Goal, RunRow, SustainedReport } from "./types";

const C = 256;

function ops(rows: RunRow[], subject: string, name: string, concurrency = C): number | undefined {
  return rows.find((r) => r.subject === subject && r.case === name && r.concurrency === concurrency)?.opsPerSec;
}

function ratioGoal(goal: string, num: number | undefined, den: number | undefined, target: number): Goal[] {
  if (num === undefined || den === undefined || den === 0) return [];
  const value = round(num / den, 2);
  return [{ goal, value, target, direction: "at least", met: value >= target }];
}

function decideGoals(rows: RunRow[], label: "1rule" | "3rule", target: number, rlf: number | undefined): Goal[] {
  const byAlg = ALGORITHMS.map((a) => ({ a, v: ops(rows, "sluice", `decide-${label}-${a}`) })).filter(
    (x): x is { a: Algorithm; v: number } => x.v !== undefined,
  );
  if (byAlg.length === 0) return [];
  const sorted = [...byAlg].sort((x, y) => y.v - x.v);
  const picks: [string, { a: Algorithm; v: number } | undefined][] = [
    ["token_bucket", byAlg.find((x) => x.a === "token_bucket")],
    [`best (${sorted[0]!.a})`, sorted[0]],
    [`worst (${sorted[sorted.length - 1]!.a})`, sorted[sorted.length - 1]],
  ];
  const rules = label === "1rule" ? "1-rule" : "3-rule";
  return picks.flatMap(([what, x]) => ratioGoal(`${rules} decide ${what} @${C} / rate-limiter-flexible consume @${C}`, x?.v, rlf, target));
}

const atMost = (goal: string, value: number, target: number): Goal => ({ goal, value, target, direction: "at most", met: value <= target });

function accuracyGoals(a: AccuracyReport | undefined): Goal[] {
  if (!a) return [];
  const algorithm = (name: string) => a.algorithms.find((r) => r.algorithm === name);
  const goals = [atMost("accuracy: sliding_window vs sliding_log, decisions that differ, %", a.slidingWindowVsLog.differingPct, 0.01)];
  const log = algorithm("sliding_log");
  if (log) goals.push(atMost("accuracy: sliding_log worst window-length span / limit", log.worstSpanRatio, 1));
  const fixed = algorithm("fixed_window");
  if (fixed) goals.push({ goal: "accuracy: fixed_window boundary burst factor", value: fixed.boundaryBurstFactor, target: 2, direction: "exactly", met: fixed.boundaryBurstFactor === 2 });
  goals.push(atMost(`accuracy: Lua vs reference models, mismatches (first ${a.modelCheck.requests} requests)`, a.modelCheck.mismatches, 0));
  return goals;
}

function sustainedGoals(s: SustainedReport | undefined): Goal[] {
  if (!s) return [];
  return s.instances.flatMap((i) => [
    atMost(`sustained ${s.seconds} s, ${i.name}: errors + timeouts + non-2xx`, i.errors + i.timeouts + i.non2xx, 0),
    atMost(`sustained ${s.seconds} s, ${i.name}: RSS growth, last vs first 10 s, %`, i.rssGrowthPct, s.rssGrowthBoundPct),
  ]);
}

export function computeGoals(report: Pick<BenchReport, "runs" | "memory" | "accuracy" | "sustained">): Goal[] {
  const { runs: rows, memory } = report;
  const rlf = ops(rows, "rate-limiter-flexible", "consume");
  const goals = [
    ...decideGoals(rows, "1rule", 1.3, rlf),
    ...decideGoals(rows, "3rule", 1.0, rlf),
    ...ratioGoal(`hot subject @${C}: sluice (refusal cache) / rate-limiter-flexible`, ops(rows, "sluice", "hot-subject"), ops(rows, "rate-limiter-flexible", "hot-subject"), 5),
  ];
  const http = (name: string) => rows.find((r) => r.subject === "sluice-http" && r.case === name);
  const [on, off] = [http("echo-protected"), http("echo-unprotected")];
  goals.push(...ratioGoal("HTTP echo req/s: protected (1 rule) / enforcement off", on?.opsPerSec, off?.opsPerSec, 0.85));
  if (on && off) {
    const added = round(on.p99Ms - off.p99Ms, 2);
    goals.push(atMost("HTTP echo p99 added by enforcement, ms", added, 2));
  }
  const simulation = rows.find((r) => r.subject === "sluice-simulator");
  if (simulation) {
    const seconds = round(simulation.p50Ms / 1000, 2);
    goals.push(atMost(`simulator: seconds to replay ${simulation.case.replace("replay-", "")} recorded requests`, seconds, 5));
  }
  for (const algorithm of ["fixed_window", "sliding_window", "token_bucket", "gcra"]) {
    const row = memory.find((m) => m.algorithm === algorithm);
    if (row) goals.push(atMost(`bytes per client, ${algorithm} (used_memory delta)`, row.bytesPerClient, 150));
  }
  return [...goals, ...accuracyGoals(report.accuracy), ...sustainedGoals(report.sustained)];
}
