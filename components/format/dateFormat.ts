/**
 * Every date and time the dashboard shows, in one layout (en-GB, 24-hour clock, the browser's time
 * zone): "25 Nov 2026, 14:05" for an instant, "14:05:09" for a time of today, "25 Nov 14:00" for a
 * chart tick that starts a day. Chart ticks fall on round times (every 5 s … 12 h, aligned to the
 * local clock) and carry the date where a day starts. Waits read "1.5 s", "2 min". Pure: each
 * function takes the time zone as an argument (default: the browser's), so tests pin it.
 */

type Zone = string | undefined;

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: Zone, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${zone ?? ""}|${JSON.stringify(options)}`;
  let f = formats.get(id);
  if (!f) formats.set(id, (f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: zone, hourCycle: "h23" })));
  return f;
}

const toMs = (at: number | string | Date) => (typeof at === "number" ? at : new Date(at).getTime());

/** "14:05:09" (or "14:05" without seconds). */
export function formatClock(at: number | string | Date, zone?: Zone, seconds = true): string {
  return format(zone, { hour: "2-digit", minute: "2-digit", second: seconds ? "2-digit" : undefined }).format(toMs(at));
}

/** "25 Nov" */
export function formatDay(at: number | string | Date, zone?: Zone): string {
  return format(zone, { day: "numeric", month: "short" }).format(toMs(at));
}

/** "25 Nov 2026, 14:05" (with seconds: "25 Nov 2026, 14:05:09"): the dashboard's one date format. */
export function formatDateTime(at: number | string | Date, zone?: Zone, seconds = false): string {
  const ms = toMs(at);
  const date = format(zone, { day: "numeric", month: "short", year: "numeric" }).format(ms);
  return `${date}, ${formatClock(ms, zone, seconds)}`;
}

/** The time of day alone for an instant of today, the date and time otherwise. */
export function formatWhen(at: number | string | Date, now = Date.now(), zone?: Zone): string {
  const ms = toMs(at);
  const day = format(zone, { year: "numeric", month: "2-digit", day: "2-digit" });
  return day.format(ms) === day.format(now) ? formatClock(ms, zone) : formatDateTime(ms, zone, true);
}

/** A wait in milliseconds as a short phrase: 0 → "now", 1500 → "1.5 s", 90000 → "1.5 min". */
export function formatWait(ms: number): string {
  if (ms <= 0) return "now";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  if (ms < 3_600_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}

/** Milliseconds the zone's clock is ahead of UTC at `ms` (whole seconds). */
export function zoneOffsetMs(ms: number, zone?: Zone): number {
  const parts = format(zone, {
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(ms / 1000) * 1000;
}

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const TICK_STEPS = [
  S,
  2 * S,
  5 * S,
  10 * S,
  15 * S,
  30 * S,
  M,
  2 * M,
  5 * M,
  10 * M,
  15 * M,
  30 * M,
  H,
  2 * H,
  3 * H,
  4 * H,
  6 * H,
  12 * H,
  24 * H,
];

export interface TimeTick {
  t: number;
  label: string;
}

/**
 * Ticks for a time axis over [fromMs, toMs]: at most `maxTicks`, on round local times (the
 * smallest step of TICK_STEPS that fits: "14:00, 14:15, …", never "14:07"). A label shows
 * seconds when the step is under a minute; the first tick, and each tick on a new day, also
 * shows the date when the axis spans more than one day ("25 Nov 00:00").
 */
export function timeTicks(fromMs: number, toMs: number, maxTicks = 7, zone?: Zone): TimeTick[] {
  if (!(toMs > fromMs)) return [];
  const span = toMs - fromMs;
  const step = TICK_STEPS.find((s) => Math.floor(span / s) + 1 <= maxTicks) ?? TICK_STEPS[TICK_STEPS.length - 1]!;
  const offset = zoneOffsetMs(fromMs, zone);
  const ticks: number[] = [];
  for (let wall = Math.ceil((fromMs + offset) / step) * step; ; wall += step) {
    // Back from the local clock to an instant, with the offset at that instant (time-zone changes).
    const t = wall - zoneOffsetMs(wall - offset, zone);
    if (t > toMs) break;
    if (t >= fromMs) ticks.push(t);
  }
  const day = (t: number) => formatDay(t, zone);
  const manyDays = day(fromMs) !== day(toMs);
  return ticks.map((t, i) => {
    const clock = formatClock(t, zone, step < M);
    const newDay = i === 0 || day(t) !== day(ticks[i - 1]!);
    return { t, label: manyDays && newDay ? `${day(t)} ${clock}` : clock };
  });
}

/** An instant as the value of a datetime-local input (the browser's zone, to the minute). */
export function toLocalInput(at: number | string | null): string {
  if (at === null) return "";
  const d = new Date(toMs(at));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
