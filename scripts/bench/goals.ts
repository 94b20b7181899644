/**
 * The performance goals, computed from the measured rows:
 * (a) 1-rule decide at concurrency 256 / rate-limiter-flexible consume at 256 >= 1.3
 *     (token_bucket, and the best and worst algorithm);
 * (b) 3-rule decide at 256 / rate-limiter-flexible (one rule) at 256 >= 1.0 (same three);
 * (c) hot subject: Sluice with refusal cache / rate-limiter-flexible >= 5;
 * (d) Redis bytes per client <= 150 for fixed_window, sliding_window, token_bucket, gcra;
 * (e) HTTP: protected echo >= 0.85 x unprotected req/s, and p99 at most 2 ms more;
 * (f) the rule simulator replays 100,000 recorded requests in at most 5 s.
 */
import { ALGORITHMS, type Algorithm } from "../../lib/limiter/types";
import { round } from "./measure";
import type { Goal, MemoryRow, RunRow } from "./types";

const C = 256;

function ops(rows: RunRow[], subject: string, name: string, concurrency = C): number | undefined {
  return rows.find((r) => r.subject === subject && r.case === name && r.concurrency === concurrency)?.opsPerSec;
}

function ratioGoal(goal: string, num: number | undefined, den: number | undefined, target: number): Goal[] {
  if (num === undefined || den === undefined || den === 0) return [];
  const value = round(num / den, 2);
  return [{ goal, value, target, met: value >= target }];
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

export function computeGoals(rows: RunRow[], memory: MemoryRow[]): Goal[] {
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
    goals.push({ goal: "HTTP echo p99 added by enforcement, ms (at most)", value: added, target: 2, met: added <= 2 });
  }
  const simulation = rows.find((r) => r.subject === "sluice-simulator");
  if (simulation) {
    const seconds = round(simulation.p50Ms / 1000, 2);
    goals.push({ goal: `simulator: seconds to replay ${simulation.case.replace("replay-", "")} recorded requests (at most)`, value: seconds, target: 5, met: seconds <= 5 });
  }
  for (const algorithm of ["fixed_window", "sliding_window", "token_bucket", "gcra"]) {
    const row = memory.find((m) => m.algorithm === algorithm);
    if (row) goals.push({ goal: `bytes per client, ${algorithm} (used_memory delta)`, value: row.bytesPerClient, target: 150, met: row.bytesPerClient <= 150 });
  }
  return goals;
}
