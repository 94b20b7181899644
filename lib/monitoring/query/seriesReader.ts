/**
 * Reads one series (a scope's rule ref, or `*`) into the buckets of a time grid: the per-second
 * hashes of every minute the grid overlaps, or the per-minute hashes of every hour. Cells outside
 * [grid.startMs, grid.toMs) and fields that are not cells are ignored. Buckets without data are zeros.
 */
import { HOUR_MS, MINUTE_MS, monitoringKeys, SECOND_MS } from "../record/monitoringKeys";
import { pairs, type ReadHandle, type ReadPlan, type Replies } from "./readPlan";
import { bucketIndex, bucketTimes, periodsCovering, type TimeGrid } from "./timeBuckets";
import type { SeriesPoint } from "./monitoringAnswers";

const CELL = /^(\d{1,2})([ars])$/;
const FIELD = { a: "allowed", r: "refused", s: "shadowRefused" } as const;

/** Plans the reads of one series; the returned function sums them once the plan has run. */
export function planSeries(
  plan: ReadPlan,
  prefix: string,
  scope: string,
  ref: string,
  grid: TimeGrid,
): (replies: Replies) => SeriesPoint[] {
  const keys = monitoringKeys(prefix, scope);
  const reads: { baseMs: number; unitMs: number; handle: ReadHandle }[] =
    grid.source === "second"
      ? periodsCovering("minute", grid.startMs, grid.toMs).map((m) => ({
          baseMs: m * MINUTE_MS,
          unitMs: SECOND_MS,
          handle: plan.add(scope, ["HGETALL", keys.seconds(ref, m)]),
        }))
      : periodsCovering("hour", grid.startMs, grid.toMs).map((h) => ({
          baseMs: h * HOUR_MS,
          unitMs: MINUTE_MS,
          handle: plan.add(scope, ["HGETALL", keys.minutes(ref, h)]),
        }));
  return (replies) => {
    const points: SeriesPoint[] = bucketTimes(grid).map((t) => ({ t, allowed: 0, refused: 0, shadowRefused: 0 }));
    for (const read of reads) {
      for (const [field, value] of pairs(replies(read.handle))) {
        const cell = CELL.exec(field);
        const count = Number(value);
        if (!cell || !Number.isFinite(count)) continue;
        const point = points[bucketIndex(grid, read.baseMs + Number(cell[1]) * read.unitMs)];
        if (point) point[FIELD[cell[2] as keyof typeof FIELD]] += count;
      }
    }
    return points;
  };
}
