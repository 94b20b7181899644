/**
 * The "Accuracy" section of docs/benchmarks.md (rendered by scripts/bench/resultsTable.ts): the seeded
 * trace, sliding_window against sliding_log by client class, each algorithm's worst span and the Lua
 * vs reference-model check. Pure; empty when the report has no accuracy part.
 */
import { cell, markdownTable } from "./markdownTable";
import type { BenchReport, ByClientClass } from "./types";

const CLASSES = ["steady", "bursty", "abusive"] as const;

const byClass = <T>(record: ByClientClass<T>, f: (value: T) => unknown): string =>
  CLASSES.map((c) => `${c} ${cell(f(record[c]))}`).join(", ");

export function accuracySection(r: BenchReport): string {
  const a = r.accuracy;
  if (!a) return "";
  const t = a.trace;
  const d = a.slidingWindowVsLog;
  const sum = (f: (c: (typeof CLASSES)[number]) => number) => CLASSES.reduce((total, c) => total + f(c), 0);
  return [
    "## Accuracy",
    "",
    `Seeded trace (seed ${t.seed}): ${cell(t.requests)} requests over ${t.durationMs / 60_000} min from ${byClass(t.clients, (n) => n)} clients (requests: ${byClass(t.requestsByClass, (n) => n)}), replayed with explicit time through decide.lua, every algorithm at ${t.limit} per ${t.windowMs / 1000} s. Took ${a.seconds.total} s (replay ${a.seconds.replay} s, model check ${a.seconds.modelCheck} s).`,
    "",
    markdownTable(
      [
        "sliding_window vs sliding_log",
        "requests",
        "decisions that differ",
        "%",
        "admitted by sliding_window only",
        "admitted by sliding_log only",
      ],
      [
        [
          "all clients",
          d.requests,
          d.differing,
          d.differingPct,
          sum((c) => d.byClass[c].slidingWindowOnly),
          sum((c) => d.byClass[c].differing - d.byClass[c].slidingWindowOnly),
        ],
        ...CLASSES.map((c) => [
          c,
          d.byClass[c].requests,
          d.byClass[c].differing,
          d.byClass[c].differingPct,
          d.byClass[c].slidingWindowOnly,
          d.byClass[c].differing - d.byClass[c].slidingWindowOnly,
        ]),
        [
          "steady and bursty (no abusive client)",
          d.byClass.steady.requests + d.byClass.bursty.requests,
          d.byClass.steady.differing + d.byClass.bursty.differing,
          d.withoutAbusivePct,
          "",
          "",
        ],
      ],
    ),
    "",
    ...(a.realistic
      ? [
          `Realistic mix (seed ${a.realistic.trace.seed}): ${cell(a.realistic.trace.requests)} requests from ${byClass(a.realistic.trace.clients, (n) => n)} clients (about 1 % over their limit): sliding_window and sliding_log differ on ${a.realistic.slidingWindowVsLog.differing} decisions (${a.realistic.slidingWindowVsLog.differingPct} %; steady and bursty ${a.realistic.slidingWindowVsLog.withoutAbusivePct} %); sliding_window's worst window-length span ${a.realistic.worstSpanRatio} x limit. Took ${a.realistic.seconds} s.`,
          "",
        ]
      : []),
    markdownTable(
      [
        "algorithm",
        "worst window-length span / limit",
        "worst span by class",
        "boundary burst factor",
        "admitted by class",
      ],
      a.algorithms.map((x) => [
        x.algorithm,
        `${cell(x.worstSpanRatio)} (${x.worstSpanClass})`,
        byClass(x.worstSpanByClass, (v) => v),
        x.boundaryBurstFactor,
        byClass(x.admittedByClass, (v) => v),
      ]),
    ),
    "",
    `Lua vs reference models on the first ${cell(a.modelCheck.requests)} requests: ${cell(a.modelCheck.mismatches)} mismatches in ${cell(a.modelCheck.compared)} rule results.`,
  ].join("\n");
}
