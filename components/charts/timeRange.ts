/**
 * The time range of the monitoring views, as it lives in the URL: `?range=15m` (a preset that
 * follows now), or `?from=<ISO instant>&to=<ISO instant>` (a fixed window, custom). Anything else
 * (missing, unknown, a reversed or over-long window) reads as the default preset, so a hand-edited
 * URL never breaks the page. Custom windows are at most 24 h (the monitoring data is kept 24 h;
 * lib/monitoring/query/monitoringSchemas.ts); the form also keeps them within the last 24 h. Pure.
 */
import { formatDateTime } from "@/components/format/dateFormat";

export const PRESETS = [
  { value: "1m", label: "1 min", words: "the last minute", spanMs: 60_000 },
  { value: "5m", label: "5 min", words: "the last 5 minutes", spanMs: 5 * 60_000 },
  { value: "15m", label: "15 min", words: "the last 15 minutes", spanMs: 15 * 60_000 },
  { value: "1h", label: "1 hour", words: "the last hour", spanMs: 3_600_000 },
  { value: "6h", label: "6 hours", words: "the last 6 hours", spanMs: 6 * 3_600_000 },
  { value: "24h", label: "24 hours", words: "the last 24 hours", spanMs: 24 * 3_600_000 },
] as const;

export type Preset = (typeof PRESETS)[number]["value"];
export type TimeRange = { preset: Preset } | { fromMs: number; toMs: number };

export const DEFAULT_RANGE: TimeRange = { preset: "5m" };
export const MAX_SPAN_MS = 24 * 3_600_000;

const presetOf = (value: string | null) => PRESETS.find((p) => p.value === value);

function instant(text: string | null): number | null {
  if (!text) return null;
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

/** Why a custom window cannot be shown, in words for the form; null when it can. */
export function customRangeProblem(fromMs: number, toMs: number, nowMs: number): string | null {
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) return "Enter both a start and an end.";
  if (toMs <= fromMs) return "The end must be after the start.";
  if (toMs - fromMs > MAX_SPAN_MS) return "The range can be at most 24 hours long.";
  if (fromMs < nowMs - MAX_SPAN_MS) return "Only the last 24 hours are kept: choose a later start.";
  if (fromMs >= nowMs) return "The start must be in the past.";
  return null;
}

export function rangeFromSearch(params: URLSearchParams): TimeRange {
  const preset = presetOf(params.get("range"));
  if (preset) return { preset: preset.value };
  const fromMs = instant(params.get("from"));
  const toMs = instant(params.get("to"));
  // A shared window may have aged past the data kept: it then shows as empty, not as an error.
  if (fromMs === null || toMs === null || toMs <= fromMs || toMs - fromMs > MAX_SPAN_MS) return DEFAULT_RANGE;
  return { fromMs, toMs };
}

/** The search string with the range set (other parameters kept; the default preset is implied). */
export function searchWithRange(params: URLSearchParams, range: TimeRange): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ["range", "from", "to"]) next.delete(name);
  if ("preset" in range) {
    if (range.preset !== (DEFAULT_RANGE as { preset: Preset }).preset) next.set("range", range.preset);
  } else {
    next.set("from", new Date(range.fromMs).toISOString());
    next.set("to", new Date(range.toMs).toISOString());
  }
  return next;
}

/** The monitoring API's window parameters (app/api/admin/monitoring/*). */
export function rangeQuery(range: TimeRange): Record<string, string | number> {
  return "preset" in range ? { range: range.preset } : { from: range.fromMs, to: range.toMs };
}

/** "the last 15 minutes", or "25 Nov 2026, 13:00 to 25 Nov 2026, 14:30". */
export function rangeWords(range: TimeRange): string {
  if ("preset" in range) return presetOf(range.preset)!.words;
  return `${formatDateTime(range.fromMs)} to ${formatDateTime(range.toMs)}`;
}

export function sameRange(a: TimeRange, b: TimeRange): boolean {
  if ("preset" in a || "preset" in b) return "preset" in a && "preset" in b && a.preset === b.preset;
  return a.fromMs === b.fromMs && a.toMs === b.toMs;
}
