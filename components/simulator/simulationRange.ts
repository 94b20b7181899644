/**
 * The ranges the simulator replays (the last 15 minutes, hour or day: the API allows at most 24 h),
 * and the request range of one, ending now.
 */
import type { RangeOption } from "@/components/charts/RangePicker";

export type SimulationRange = "15m" | "1h" | "24h";

export const SIMULATION_RANGES: readonly RangeOption<SimulationRange>[] = [
  { value: "15m", label: "15 min" },
  { value: "1h", label: "1 hour" },
  { value: "24h", label: "24 hours" },
];

const SPAN_MS: Record<SimulationRange, number> = { "15m": 15 * 60_000, "1h": 60 * 60_000, "24h": 24 * 60 * 60_000 };

export const SIMULATION_RANGE_WORDS: Record<SimulationRange, string> = {
  "15m": "the last 15 minutes",
  "1h": "the last hour",
  "24h": "the last 24 hours",
};

export function requestRange(range: SimulationRange, nowMs: number): { fromMs: number; toMs: number } {
  return { fromMs: nowMs - SPAN_MS[range], toMs: nowMs };
}
