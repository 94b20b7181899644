/**
 * What the caller-history chart (CallerHistoryChart.tsx) draws and says, from the caller-history
 * answer (lib/monitoring/query/callerHistoryQuery.ts): per period its allowed and refused requests
 * and one column per rule that refused (`rule:<ref>`), the rules' legend names, and the "now" line
 * (the last complete minute). Pure.
 */
import type { CallerHistory } from "@/lib/monitoring/query/monitoringAnswers";
import { formatCount, formatPct, formatRate } from "@/components/format/numberFormat";

export type CallerHistoryRow = { t: number; allowed: number; refused: number } & Record<`rule:${string}`, number>;

export const ruleColumn = (ref: string): `rule:${string}` => `rule:${ref}`;

export function callerHistoryRows(history: CallerHistory): CallerHistoryRow[] {
  return history.points.map((p) => {
    const row: CallerHistoryRow = { t: p.t, allowed: Math.max(0, p.requests - p.refused), refused: p.refused };
    for (const rule of history.rules) row[ruleColumn(rule.ref)] = p.byRule[rule.ref] ?? 0;
    return row;
  });
}

/** A rule's name as the legend shows it: its name, or its ref once deleted and forgotten. */
export function ruleLegend(rule: CallerHistory["rules"][number]): string {
  return `Refused by ${rule.name ?? `deleted rule ${rule.ref}`}`;
}

/**
 * "12 requests in the last minute (0.20 /s), 3 refused (25 %), mostly by burst", or "No requests in
 * the last minute". `mostly by` names the rule that refused most in that minute.
 */
export function callerNowWords(history: CallerHistory): string {
  const { requests, refused, fromMs } = history.current;
  if (requests === 0) return "No requests in the last minute";
  const head = `${formatCount(requests)} ${requests === 1 ? "request" : "requests"} in the last minute (${formatRate(requests / 60)} /s)`;
  if (refused === 0) return `${head}, none refused`;
  const point = history.points.find((p) => p.t === fromMs);
  const top = Object.entries(point?.byRule ?? {}).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0];
  const rule = top ? history.rules.find((r) => r.ref === top[0]) : undefined;
  const by = rule ? `, mostly by ${rule.name ?? `deleted rule ${rule.ref}`}` : "";
  return `${head}, ${formatCount(refused)} refused (${formatPct((100 * refused) / requests)})${by}`;
}

/**
 * The last complete minute in words (callerLastMinuteWords), then the minute still filling when
 * it has requests: "…; so far this minute: 5 requests, 2 refused". At 3 a.m. the incident is in
 * the minute still running.
 */
export function callerNowLine(history: CallerHistory): string {
  const last = callerNowWords(history);
  const running =
    history.resolution === "minute" ? history.points.find((p) => p.t === history.current.toMs) : undefined;
  if (!running || running.requests === 0) return last;
  const n = running.requests;
  return `${last}; so far this minute: ${formatCount(n)} ${n === 1 ? "request" : "requests"}, ${formatCount(running.refused)} refused`;
}
