/**
 * Durations as operators type and read them ("1 min", "30 s", "1.5 h", "2 days"), turned into the
 * milliseconds the rule schema and the API take. The form parses with `parseDuration` and hands
 * the number to the one shared rule schema, which alone decides what is allowed (whole
 * milliseconds within the bounds of lib/common/fieldLimits.ts); `formatDuration` shows a stored
 * value back the same way.
 */

const UNITS: [RegExp, number][] = [
  [/^(ms|msec|millis(econds?)?|milliseconds?)$/, 1],
  [/^(s|sec|secs|seconds?)$/, 1_000],
  [/^(m|min|mins|minutes?)$/, 60_000],
  [/^(h|hr|hrs|hours?)$/, 3_600_000],
  [/^(d|days?)$/, 86_400_000],
];

const SHAPE = /^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]+)$/;

/** Milliseconds, or null when the text is not "<number> <unit>" (a bare number has no unit: null). */
export function parseDuration(text: string): number | null {
  const match = SHAPE.exec(text.trim().toLowerCase());
  if (!match) return null;
  const unit = UNITS.find(([pattern]) => pattern.test(match[2]!));
  if (!unit) return null;
  return Math.round(Number(match[1]) * unit[1] * 1000) / 1000;
}

const SHOWN: [number, string][] = [
  [86_400_000, "d"],
  [3_600_000, "h"],
  [60_000, "min"],
  [1_000, "s"],
];

/** The largest unit that divides the duration exactly, so it parses back to the same value: 60000 → "1 min", 90000 → "90 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return `${ms} ms`;
  for (const [size, unit] of SHOWN) if (ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}

/** The per-window phrase of a rate: "per min", "per 30 s", "per 2 h". */
export function perDuration(ms: number): string {
  const shown = formatDuration(ms);
  return shown.startsWith("1 ") ? `per ${shown.slice(2)}` : `per ${shown}`;
}

/**
 * A limit as every page shows it: "20,000 per min", "10 per s", "5 per 30 s" (one formatter, so the
 * rule list, the editor, its change summary and the audit log agree).
 */
export function formatLimit(limit: number, window: number | RuleWindow | undefined): string {
  return `${limit.toLocaleString("en")} ${perWindow(window)}`;
}

/** What a rule counts per: a window in ms, or a calendar period in a time zone. */
export interface RuleWindow {
  windowMs?: number | undefined;
  period?: "day" | "week" | "month" | undefined;
  timeZone?: string | undefined;
}

/** "per min", or for a calendar rule "per calendar month (Europe/Berlin)", "per calendar day (UTC)". */
export function perWindow(window: number | RuleWindow | undefined): string {
  if (typeof window === "number") return perDuration(window);
  if (window?.period) return `per calendar ${window.period} (${window.timeZone ?? "UTC"})`;
  return perDuration(window?.windowMs ?? Number.NaN);
}

export const DURATION_HELP = "a number and a unit: 500 ms, 30 s, 1 min, 2 h, 1 d";
