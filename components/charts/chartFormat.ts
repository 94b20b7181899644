/** Labels shared by the charts and tables: times on an axis, rates, counts. */
import type { Range } from "./RangePicker";

export function formatTick(t: number, range: Range): string {
  if (range !== "5m") return formatMinuteTick(t);
  return new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
}

/** Hours and minutes: the tick of a chart with a point per minute or coarser. */
export function formatMinuteTick(t: number): string {
  return new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}

export function formatTime(t: number): string {
  return new Date(t).toLocaleString([], { hour12: false });
}

/** The time of day alone for today, with the date otherwise. */
export function formatWhen(t: number, now = Date.now()): string {
  const date = new Date(t);
  return date.toDateString() === new Date(now).toDateString() ? date.toLocaleTimeString([], { hour12: false }) : formatTime(t);
}

export function formatCount(n: number): string {
  return n.toLocaleString();
}

/** Requests per second with a sensible number of digits. */
export function formatRate(perSecond: number): string {
  if (perSecond === 0) return "0";
  if (perSecond < 10) return perSecond.toFixed(2);
  return perSecond.toFixed(1);
}

export function formatPct(pct: number | null): string {
  if (pct === null) return "–";
  if (pct === 0 || pct >= 10) return `${pct.toFixed(0)} %`;
  return `${pct.toFixed(1)} %`;
}

export const RANGE_WORDS: Record<Range, string> = { "5m": "the last 5 minutes", "1h": "the last hour", "24h": "the last 24 hours" };

/** Ten colours that stay apart from each other in light and dark mode. */
export const SERIES_COLOURS = ["#2458c6", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d5a97", "#e07a5f", "#3d5a80", "#b5838d", "#6c757d"];

export const ALLOWED_COLOUR = "#3c9d5d";
export const REFUSED_COLOUR = "#d1495b";
export const SHADOW_COLOUR = "#c77d00";
