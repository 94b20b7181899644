/**
 * Time arithmetic of the monitoring queries. Pure.
 *
 * A series of step `stepMs` over [fromMs, toMs) has one point per bucket [t, t + stepMs), with t a
 * multiple of stepMs (aligned to the UTC epoch) from floor(fromMs / stepMs) * stepMs while t < toMs:
 * the first bucket may start before fromMs, so every point covers a whole step except the last.
 * A step that is a whole number of minutes reads the per-minute data, any other step the
 * per-second data (the validation allows that only for ranges up to 1 h).
 */
import { HOUR_MS, MINUTE_MS, type Resolution } from "../record/monitoringKeys";

export interface TimeGrid {
  /** Start of the first bucket. */
  startMs: number;
  toMs: number;
  stepMs: number;
  /** Which data the points are summed from. */
  source: "second" | "minute";
}

export function timeGrid(fromMs: number, toMs: number, stepMs: number): TimeGrid {
  return {
    startMs: Math.floor(fromMs / stepMs) * stepMs,
    toMs,
    stepMs,
    source: stepMs % MINUTE_MS === 0 ? "minute" : "second",
  };
}

export function bucketTimes(grid: TimeGrid): number[] {
  const out: number[] = [];
  for (let t = grid.startMs; t < grid.toMs; t += grid.stepMs) out.push(t);
  return out;
}

/** The index of the bucket holding `ms`, or -1 outside the grid. */
export function bucketIndex(grid: TimeGrid, ms: number): number {
  if (ms < grid.startMs || ms >= grid.toMs) return -1;
  return Math.floor((ms - grid.startMs) / grid.stepMs);
}

/** Epoch indexes (minutes or hours) of every period overlapping [fromMs, toMs). */
export function periodsCovering(resolution: Resolution, fromMs: number, toMs: number): number[] {
  const size = resolution === "minute" ? MINUTE_MS : HOUR_MS;
  const out: number[] = [];
  for (let i = Math.floor(fromMs / size); i * size < toMs; i++) out.push(i);
  return out;
}

/** Sets of hot keys and near-limit marks: per minute for ranges up to 1 h, per hour beyond. */
export function setResolution(fromMs: number, toMs: number): Resolution {
  return toMs - fromMs <= HOUR_MS ? "minute" : "hour";
}

/** Start (epoch ms) of a period index. */
export function periodStartMs(resolution: Resolution, index: number): number {
  return index * (resolution === "minute" ? MINUTE_MS : HOUR_MS);
}
