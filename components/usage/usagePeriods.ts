/**
 * The Usage page's periods (browser-safe): a quota rule's windows (fixed_window, aligned to the
 * epoch like the limiter's) or UTC calendar months when no rule is picked; the current one and up
 * to 12 before it, as many as fit the usage API's 400 days; and the usage rows summed into them.
 */
export const USAGE_MAX_RANGE_MS = 400 * 86_400_000;
export const PERIODS_BACK = 12;
const DAY_MS = 86_400_000;

export interface Period {
  startMs: number;
  endMs: number;
}

/** Windows of `windowMs` (current last), or UTC calendar months when windowMs is null. */
export function usagePeriods(nowMs: number, windowMs: number | null, back = PERIODS_BACK): Period[] {
  const periods: Period[] = [];
  if (windowMs === null) {
    const now = new Date(nowMs);
    for (let k = back; k >= 0; k--) {
      const startMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k, 1);
      const endMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k + 1, 1);
      periods.push({ startMs, endMs });
    }
  } else {
    const current = Math.floor(nowMs / windowMs) * windowMs;
    for (let k = back; k >= 0; k--)
      periods.push({ startMs: current - k * windowMs, endMs: current - (k - 1) * windowMs });
  }
  // The API answers at most 400 days: drop the oldest periods that do not fit.
  return periods.filter((p) => nowMs - p.startMs <= USAGE_MAX_RANGE_MS);
}

/** Hourly rows when a period boundary is not on a UTC day, else daily ones. */
export function granularityFor(periods: Period[]): "hour" | "day" {
  return periods.every((p) => p.startMs % DAY_MS === 0) ? "day" : "hour";
}

export interface PeriodUsage extends Period {
  admitted: number;
  refused: number;
  units: number;
}

/** Rows (`start` ISO) summed into the periods they start in. */
export function sumIntoPeriods(
  periods: Period[],
  rows: readonly { start: string; admitted: number; refused: number; units: number }[],
): PeriodUsage[] {
  const out = periods.map((p) => ({ ...p, admitted: 0, refused: 0, units: 0 }));
  for (const row of rows) {
    const at = Date.parse(row.start);
    const period = out.find((p) => at >= p.startMs && at < p.endMs);
    if (!period) continue;
    period.admitted += row.admitted;
    period.refused += row.refused;
    period.units += row.units;
  }
  return out;
}
