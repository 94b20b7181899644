/**
 * The performance goals, computed from the measured rows:
 * (a) 1-rule decide at concurrency 256 / rate-limiter-flexible consume at 256 >= 3.0
 *     (token_bucket, and the best and worst algorithm; issue 18);
 * (a') sequential (concurrency 1): 1-rule token_bucket decide / rate-limiter-flexible consume >= 1.0;
 * (b) 3-rule decide at 256 / rate-limiter-flexible (one rule) at 256 >= 1.5 (same three);
 * (c) hot subject: Sluice with refusal cache / rate-limiter-flexible >= 5, and / rate-limiter-
 *     flexible's in-memory block (inMemoryBlockOnConsumed) >= 1.0;
 * (d) Redis bytes per client <= 150 for fixed_window, sliding_window, token_bucket, gcra; <= 220
 *     for three rules of one subject;
 * (e) HTTP: protected echo >= 0.85 x unprotected req/s, and p99 at most 2 ms more;
 * (f) accuracy: sliding_window and sliding_log differ on at most 0.01 % of decisions; sliding_log
 *     never admits more than the limit in a window-length span; fixed_window's boundary burst is
 *     2.0 x; the Lua and the reference models never disagree;
 * (g) sustained load: no error and no non-2xx answer, RSS growth within the stated bound;
 * (h) the rule simulator replays 100,000 recorded requests in at most 5 s;
 * (i) data plane: echo, check, authorize >= 0.5 x a bare node+Redis server's req/s, p50 at 100
 *     connections within 2 x its p50; gateway >= 0.6 x a bare Node proxy, p99 added at half load <= 2 ms;
 * (j) callers on a tenant host (identityGoals.ts) and Envoy's rate limit service (grpcGoals.ts);
 * (k) metering at scale: the usage API's 31-day queries (usageGoals.ts).
 */
import { ALGORITHMS } from "../../lib/limiter/types";
import { atMost, ratioGoal } from "./goalShapes";
import { grpcGoals } from "./grpcGoals";
import { identityGoals } from "./identityGoals";
import { usageGoals } from "./usageGoals";
import { round } from "./measure";
import { THREE_RULES_ROW } from "./memory";
import type { AccuracyReport, BenchReport, BurstReport, Goal, RunRow, SustainedReport } from "./types";

const C = 256;

function ops(rows: RunRow[], subject: string, name: string, concurrency = C): number | undefined {
  return rows.find((r) => r.subject === subject && r.case === name && r.concurrency === concurrency)?.opsPerSec;
}

function decideGoals(rows: RunRow[], label: "1rule" | "3rule", target: number, rlf: number | undefined): Goal[] {
  const byAlg = ALGORITHMS.map((a) => ({ a, v: ops(rows, "sluice", `decide-${label}-${a}`) })).filter(
    (x): x is { a: (typeof ALGORITHMS)[number]; v: number } => x.v !== undefined,
  );
  if (byAlg.length === 0) return [];
  const sorted = [...byAlg].sort((x, y) => y.v - x.v);
  const picks: [string, { a: (typeof ALGORITHMS)[number]; v: number } | undefined][] = [
    ["token_bucket", byAlg.find((x) => x.a === "token_bucket")],
    [`best (${sorted[0]!.a})`, sorted[0]],
    [`worst (${sorted[sorted.length - 1]!.a})`, sorted[sorted.length - 1]],
  ];
  const rules = label === "1rule" ? "1-rule" : "3-rule";
  return picks.flatMap(([what, x]) =>
    ratioGoal(`${rules} decide ${what} @${C} / rate-limiter-flexible consume @${C}`, x?.v, rlf, target),
  );
}

function accuracyGoals(a: AccuracyReport | undefined): Goal[] {
  if (!a) return [];
  const algorithm = (name: string) => a.algorithms.find((r) => r.algorithm === name);
  const goals = [
    atMost(
      "accuracy: sliding_window vs sliding_log, decisions that differ, % (stress mix)",
      a.slidingWindowVsLog.differingPct,
      0.01,
    ),
  ];
  if (a.realistic) {
    goals.push(
      atMost(
        "accuracy: sliding_window vs sliding_log, decisions that differ, % (realistic mix, ~1 % of clients over their limit)",
        a.realistic.slidingWindowVsLog.differingPct,
        0.01,
      ),
    );
  }
  const log = algorithm("sliding_log");
  if (log) goals.push(atMost("accuracy: sliding_log worst window-length span / limit", log.worstSpanRatio, 1));
  const fixed = algorithm("fixed_window");
  if (fixed)
    goals.push({
      goal: "accuracy: fixed_window boundary burst factor",
      value: fixed.boundaryBurstFactor,
      target: 2,
      direction: "exactly",
      met: fixed.boundaryBurstFactor === 2,
    });
  goals.push(
    atMost(
      `accuracy: Lua vs reference models, mismatches (first ${a.modelCheck.requests} requests)`,
      a.modelCheck.mismatches,
      0,
    ),
  );
  return goals;
}

function sustainedGoals(s: SustainedReport | undefined): Goal[] {
  if (!s) return [];
  return s.instances.flatMap((i) => [
    atMost(`sustained ${s.seconds} s, ${i.name}: errors + timeouts + non-2xx`, i.errors + i.timeouts + i.non2xx, 0),
    atMost(
      `sustained ${s.seconds} s, ${i.name}: RSS growth, last vs first 10 s, %`,
      i.rssGrowthPct,
      s.rssGrowthBoundPct,
    ),
    ...(i.failModeActivations === undefined
      ? []
      : [
          atMost(
            `sustained ${s.seconds} s, ${i.name}: fail-mode activations (Redis is local and healthy)`,
            i.failModeActivations,
            0,
          ),
        ]),
  ]);
}

/** (i) Data plane: echo, check, authorize >= 0.5 x the node+Redis ceiling, p50 within 2 x; gateway >= 0.6 x a bare proxy, p99 added at half load <= 2 ms. */
function dataplaneGoals(rows: RunRow[]): Goal[] {
  const row = (name: string) => rows.find((r) => r.subject === "dataplane" && r.case === name);
  const ceiling = row("ceiling-node-redis");
  const goals: Goal[] = [];
  for (const name of ["sluice-echo", "sluice-check", "sluice-authorize"]) {
    const r = row(name);
    goals.push(
      ...ratioGoal(
        `data plane ${name.replace("sluice-", "")} req/s / bare node+Redis ceiling`,
        r?.opsPerSec,
        ceiling?.opsPerSec,
        0.5,
      ),
    );
    if (r && ceiling && ceiling.p50Ms > 0)
      goals.push(
        atMost(
          `data plane ${name.replace("sluice-", "")} p50 / ceiling p50 @100`,
          round(r.p50Ms / ceiling.p50Ms, 2),
          2,
        ),
      );
  }
  goals.push(
    ...ratioGoal(
      "gateway req/s / bare Node proxy",
      row("sluice-gateway")?.opsPerSec,
      row("bare-proxy")?.opsPerSec,
      0.6,
    ),
  );
  const [gwHalf, proxyHalf] = [row("sluice-gateway-half-load"), row("bare-proxy-half-load")];
  if (gwHalf && proxyHalf)
    goals.push(atMost("gateway p99 added at half load vs bare proxy, ms", round(gwHalf.p99Ms - proxyHalf.p99Ms, 2), 2));
  return goals;
}

function burstGoals(b: BurstReport | undefined): Goal[] {
  if (!b) return [];
  const worst = Math.max(...b.rounds.map((r) => r.admitted));
  return [
    {
      goal: `burst: ${b.requests} concurrent requests on two instances, limit ${b.limit}, most admitted in a round`,
      value: worst,
      target: b.limit,
      direction: "at most",
      met: worst <= b.limit,
    },
    atMost(
      "burst: fail-mode activations, all rounds",
      b.rounds.reduce((sum, r) => sum + r.failModeActivations, 0),
      0,
    ),
  ];
}

export function computeGoals(
  report: Pick<BenchReport, "runs" | "memory" | "accuracy" | "sustained" | "burst">,
): Goal[] {
  const { runs: rows, memory } = report;
  const rlf = ops(rows, "rate-limiter-flexible", "consume");
  const goals = [
    ...decideGoals(rows, "1rule", 3.0, rlf),
    ...ratioGoal(
      "sequential (concurrency 1): 1-rule decide token_bucket / rate-limiter-flexible consume",
      ops(rows, "sluice", "decide-1rule-token_bucket", 1),
      ops(rows, "rate-limiter-flexible", "consume", 1),
      1.0,
    ),
    ...decideGoals(rows, "3rule", 1.5, rlf),
    ...ratioGoal(
      `hot subject @${C}: sluice (refusal cache) / rate-limiter-flexible`,
      ops(rows, "sluice", "hot-subject"),
      ops(rows, "rate-limiter-flexible", "hot-subject"),
      5,
    ),
    ...ratioGoal(
      `hot subject @${C}: sluice (refusal cache) / rate-limiter-flexible in-memory block`,
      ops(rows, "sluice", "hot-subject"),
      ops(rows, "rate-limiter-flexible", "hot-subject-inmemory-block"),
      1.0,
    ),
  ];
  const http = (name: string) => rows.find((r) => r.subject === "sluice-http" && r.case === name);
  const [on, off] = [http("echo-protected"), http("echo-unprotected")];
  goals.push(
    ...ratioGoal("HTTP echo req/s: protected (1 rule) / enforcement off", on?.opsPerSec, off?.opsPerSec, 0.85),
  );
  if (on && off) {
    const added = round(on.p99Ms - off.p99Ms, 2);
    goals.push(atMost("HTTP echo p99 added by enforcement, ms", added, 2));
  }
  goals.push(...dataplaneGoals(rows), ...identityGoals(rows), ...grpcGoals(rows), ...usageGoals(rows));
  const simulation = rows.find((r) => r.subject === "sluice-simulator");
  if (simulation) {
    const seconds = round(simulation.p50Ms / 1000, 2);
    goals.push(
      atMost(`simulator: seconds to replay ${simulation.case.replace("replay-", "")} recorded requests`, seconds, 5),
    );
  }
  for (const algorithm of ["fixed_window", "sliding_window", "token_bucket", "gcra"]) {
    const row = memory.find((m) => m.algorithm === algorithm);
    if (row) goals.push(atMost(`bytes per client, ${algorithm} (used_memory delta)`, row.bytesPerClient, 150));
  }
  const three = memory.find((m) => m.algorithm === THREE_RULES_ROW);
  if (three) goals.push(atMost(`bytes per client, ${THREE_RULES_ROW} (used_memory delta)`, three.bytesPerClient, 220));
  return [
    ...goals,
    ...accuracyGoals(report.accuracy),
    ...sustainedGoals(report.sustained),
    ...burstGoals(report.burst),
  ];
}
