/**
 * What the algorithm picker tells an operator: each algorithm's trade-off in a sentence or two,
 * and how the shared numeric fields read for it. Keyed by `Algorithm`, so a new algorithm in the
 * limiter core does not compile until it is explained here.
 */
import { MAX_SLIDING_LOG_LIMIT } from "@/lib/common/fieldLimits";
import { BURST_ALGORITHMS, RULE_ALGORITHMS, type Algorithm } from "@/lib/limiter/types";

export interface AlgorithmGuide {
  title: string;
  /** A few words shown under the rule's algorithm select (the full trade-off is in the editor's help). */
  summary: string;
  tradeOff: string;
  /** Whether the algorithm has a capacity, `burst` (lib/limiter/types.ts BURST_ALGORITHMS says which). */
  usesBurst: boolean;
  /** What `limit`, `windowMs` and `burst` mean for this algorithm (the labels stay the field names). */
  limitHint: string;
  windowHint: string;
  burstHint?: string;
}

const GUIDE_TEXT: Record<Algorithm, Omit<AlgorithmGuide, "usesBurst">> = {
  fixed_window: {
    summary: "clock-aligned windows; cheapest",
    title: "Fixed window",
    tradeOff:
      "Counts requests in windows aligned to the clock (each starts at a multiple of the window). Cheapest, but a client can send up to twice the limit across a window boundary.",
    limitHint: "requests per window",
    windowHint: "window length in milliseconds",
  },
  sliding_window: {
    summary: "smooth windows; cheap estimate",
    title: "Sliding window",
    tradeOff:
      "Weighs the previous window's count by how much of it still overlaps. Smooths the boundary burst at the same cost as a fixed window; an estimate that assumes the previous window's requests were evenly spread, so a burst at the end of one window can let nearly twice the limit through within one window length.",
    limitHint: "requests per window",
    windowHint: "window length in milliseconds",
  },
  sliding_log: {
    summary: "exact; for limits up to a few thousand",
    title: "Sliding log",
    tradeOff: `Remembers every admitted request in the window: exact, never more than the limit in any window. Memory and CPU grow with the requests per window, so its limit is capped at ${MAX_SLIDING_LOG_LIMIT.toLocaleString("en")} (use sliding_window above that).`,
    limitHint: "requests per window",
    windowHint: "window length in milliseconds",
  },
  token_bucket: {
    summary: "bursts up to the burst, then a steady rate",
    title: "Token bucket",
    tradeOff:
      "A bucket of burst tokens refilled with limit tokens per period, fractionally. Allows short bursts up to the capacity, then a steady rate.",
    limitHint: "tokens added per period",
    windowHint: "refill period in milliseconds",
    burstHint: "bucket capacity (empty: the limit)",
  },
  gcra: {
    summary: "evenly spaced, burst ahead of schedule",
    title: "GCRA",
    tradeOff:
      "Spaces requests one every period ÷ limit, tolerating up to burst requests ahead of schedule. Admits exactly what a token bucket with the same numbers admits; pick the description you reason about best.",
    limitHint: "requests per period",
    windowHint: "period in milliseconds",
    burstHint: "requests allowed ahead of schedule (empty: the limit)",
  },
  concurrency: {
    summary: "requests in flight at once; gateway",
    title: "Concurrency",
    tradeOff:
      "Not a rate: at most limit requests of a client in flight at once. A request holds a slot from its admission until its upstream's response ends, fails or times out or the client goes away (for echo and check: until Sluice has answered). The window is the lease length: a slot never given back (an instance lost mid-request) frees after it, so make it longer than the upstream's timeout. Cost 1 only, no penalty, no local fail mode, no identifier scope; not applied to forward auth (/api/v1/authorize has no end); the simulator does not replay it.",
    limitHint: "requests in flight at once",
    windowHint: "lease length: a slot not given back frees after it",
  },
};

export const ALGORITHM_GUIDE = Object.fromEntries(
  RULE_ALGORITHMS.map((algorithm) => [
    algorithm,
    { ...GUIDE_TEXT[algorithm], usesBurst: BURST_ALGORITHMS.includes(algorithm) },
  ]),
) as Record<Algorithm, AlgorithmGuide>;

/** A window length as people read it: 60000 → "1 min", 1500 → "1.5 s". */
export function describeDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return "";
  const units: [number, string][] = [
    [86_400_000, "d"],
    [3_600_000, "h"],
    [60_000, "min"],
    [1_000, "s"],
  ];
  for (const [size, unit] of units) {
    if (ms >= size) return `${Number((ms / size).toFixed(2))} ${unit}`;
  }
  return `${ms} ms`;
}
