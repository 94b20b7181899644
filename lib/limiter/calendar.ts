/**
 * Calendar periods of a `fixed_window` rule with `period` (day, week from Monday, month) in an IANA
 * time zone: where a period starts and ends as epoch ms, across month lengths and summer time.
 *
 * Lua cannot do time-zone arithmetic, and the decision's time is Redis TIME (house rule), so the
 * limiter sends the script the boundaries of the periods around this process's clock (`periodBounds`:
 * the previous, the current and the next period) and the script counts in the one that holds
 * Redis TIME (lua/includes/fixed_window.lua, "fp"): an instance whose clock is off by less than a
 * period still counts in the right one. Only `Intl` is used (no time-zone library).
 */

export const PERIODS = ["day", "week", "month"] as const;
export type PeriodUnit = (typeof PERIODS)[number];

export interface CalendarPeriod {
  unit: PeriodUnit;
  /** An IANA time zone name (`UTC`, `Europe/Berlin`). */
  timeZone: string;
  /**
   * `month` only: the day of the month (1..31) periods start on instead of the 1st, a key's billing
   * day (lib/policy/compiled/billingAnchor.ts). A month shorter than it starts on its last day
   * (anchor 31: Feb 28 or 29, Apr 30), and the next period again on the anchor day.
   */
  anchorDay?: number;
}

/**
 * The longest a period lasts, in ms: what code that needs one window length (RateLimit-Policy's
 * `w`, the subject budget, a never-passing request's retry) uses for a calendar rule.
 */
export const PERIOD_MAX_MS: Record<PeriodUnit, number> = {
  day: 25 * 3_600_000,
  week: 7 * 86_400_000 + 3_600_000,
  month: 31 * 86_400_000 + 3_600_000,
};

/** The nominal length RateLimit-Policy's `w` names: 1 day, 7 days, 30 days. */
export const PERIOD_NOMINAL_MS: Record<PeriodUnit, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `name` is a time zone this runtime knows (IANA names, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

interface LocalDate {
  y: number;
  m: number; // 1..12
  d: number;
}

/** The wall clock in `timeZone` at `t`, as if it were UTC (epoch ms of that wall time, whole seconds). */
function wallClock(t: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(t)))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

function localDate(t: number, timeZone: string): LocalDate {
  const w = new Date(wallClock(t, timeZone));
  return { y: w.getUTCFullYear(), m: w.getUTCMonth() + 1, d: w.getUTCDate() };
}

/** y, m, d normalized (d may be 0 or negative, or past the month's end; m may be 0 or 13). */
function dateOf(y: number, m: number, d: number): LocalDate {
  const w = new Date(Date.UTC(y, m - 1, d));
  return { y: w.getUTCFullYear(), m: w.getUTCMonth() + 1, d: w.getUTCDate() };
}

const sameDate = (a: LocalDate, b: LocalDate) => a.y === b.y && a.m === b.m && a.d === b.d;

/**
 * The first instant of local date `date` in `timeZone`: its midnight, or, where midnight falls in a
 * summer-time gap (zones that change at 00:00), the end of the gap.
 */
export function startOfLocalDay(date: LocalDate, timeZone: string): number {
  const guess = Date.UTC(date.y, date.m - 1, date.d);
  const offsetAt = (t: number) => wallClock(t, timeZone) - (t - (((t % 1000) + 1000) % 1000));
  const first = guess - offsetAt(guess);
  const second = guess - offsetAt(first);
  const candidates = [first, second, guess - offsetAt(second)].filter((c) => sameDate(localDate(c, timeZone), date));
  if (candidates.length > 0) return Math.min(...candidates);
  // Midnight in a gap whose offsets the guesses missed: the first whole hour of the day.
  for (let h = 1; h <= 3; h++) {
    const c = first + h * 3_600_000;
    if (sameDate(localDate(c, timeZone), date)) return c;
  }
  return first;
}

/** The anchored month's start day in month y-m: the anchor, or the month's last day when it is shorter. */
function anchoredStart(y: number, m: number, anchorDay: number): LocalDate {
  const month = dateOf(y, m, 1); // normalizes m = 0 or 13
  const last = dateOf(month.y, month.m + 1, 0).d;
  return { y: month.y, m: month.m, d: Math.min(anchorDay, last) };
}

/** The local date of the period holding local date `date`, shifted by `shift` periods. */
function periodStartDate(date: LocalDate, period: CalendarPeriod, shift: number): LocalDate {
  const unit = period.unit;
  if (unit === "day") return dateOf(date.y, date.m, date.d + shift);
  if (unit === "month" && period.anchorDay !== undefined && period.anchorDay > 1) {
    const inThisMonth = date.d >= anchoredStart(date.y, date.m, period.anchorDay).d;
    return anchoredStart(date.y, date.m + shift - (inThisMonth ? 0 : 1), period.anchorDay);
  }
  if (unit === "month") return dateOf(date.y, date.m + shift, 1);
  const weekday = (new Date(Date.UTC(date.y, date.m - 1, date.d)).getUTCDay() + 6) % 7; // Monday 0
  return dateOf(date.y, date.m, date.d - weekday + 7 * shift);
}

/** The period holding `t`: its start and end (the next one's start), epoch ms. */
export function periodAt(period: CalendarPeriod, t: number): { startMs: number; endMs: number } {
  const date = localDate(t, period.timeZone);
  const startMs = startOfLocalDay(periodStartDate(date, period, 0), period.timeZone);
  const endMs = startOfLocalDay(periodStartDate(date, period, 1), period.timeZone);
  // At the very start of a day that begins after a gap, the wall date may already be the next.
  if (t < startMs) return periodAt(period, startMs - 1);
  return { startMs, endMs };
}

/**
 * The boundaries the script picks from: the previous period's start, the current period's start
 * (the one holding `t`), the next period's start and its end, epoch ms, ascending.
 */
export function periodBounds(period: CalendarPeriod, t: number): [number, number, number, number] {
  const { startMs, endMs } = periodAt(period, t);
  const previous = periodAt(period, startMs - 1).startMs;
  const afterNext = periodAt(period, endMs).endMs;
  return [previous, startMs, endMs, afterNext];
}
