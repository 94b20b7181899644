/**
 * What the time-series charts share: an x axis on round local times (dateFormat.timeTicks) over
 * the queried window, and the partial last bucket: a series' last point covers [t, t + step),
 * which is still filling while t + step is after the window's end (now, for a live range). Pure.
 */
import { formatClock, timeTicks } from "@/components/format/dateFormat";

export function timeAxis(fromMs: number, toMs: number) {
  const ticks = timeTicks(fromMs, toMs);
  const labels = new Map(ticks.map((tick) => [tick.t, tick.label]));
  return {
    dataKey: "t",
    type: "number" as const,
    domain: [fromMs, toMs] as [number, number],
    ticks: ticks.map((tick) => tick.t),
    tickFormatter: (t: number) => labels.get(t) ?? formatClock(t, undefined, false),
    interval: 0 as const,
    allowDataOverflow: true,
  };
}

export interface PartialBucket {
  /** Start of the last bucket. */
  t: number;
  /** How much of it has elapsed, ms (less than the step). */
  elapsedMs: number;
  stepMs: number;
}

export function partialBucket(times: readonly number[], stepMs: number, toMs: number): PartialBucket | null {
  const t = times[times.length - 1];
  if (t === undefined || t + stepMs <= toMs) return null;
  return { t, elapsedMs: Math.max(0, toMs - t), stepMs };
}

/** The seconds a bucket covers so far: the whole step, or the elapsed part of a partial last one. */
export function bucketSeconds(t: number, stepMs: number, toMs: number): number {
  return Math.max(1, Math.min(stepMs, toMs - t)) / 1000;
}

/**
 * Rows with the partial last bucket left undrawn: a few requests in the first seconds of a bucket
 * made a spike (up to 100 %) where the eye lands (issue 31). A line gets a gap there (`null`); a
 * `stepAfter` area gets the previous bucket's values, which ends that bucket's step at its real
 * end. The partial bucket stays shaded; its figures are still in the totals.
 */
export function undrawnPartial<R extends { t: number }>(
  rows: readonly R[],
  partial: PartialBucket | null,
  mode: "gap" | "close",
): R[] {
  const last = rows[rows.length - 1];
  if (!partial || !last || last.t !== partial.t) return [...rows];
  const before = rows.slice(0, -1);
  const previous = before[before.length - 1];
  if (mode === "close") return previous ? [...before, { ...previous, t: last.t }] : before;
  const gap = Object.fromEntries(Object.keys(last).map((k) => [k, k === "t" ? last.t : null]));
  return [...before, gap as R];
}
