/**
 * Configuration changes drawn on the time-series charts as vertical lines (Grafana's annotations),
 * from the audit log: each change inside the chart's window, oldest first, with its sentence
 * (components/audit/auditSentence.ts) for the line's title and the chart's summary. Pure.
 */
import type { AuditEvent } from "@/components/audit/auditTypes";
import { auditSentence, type Names } from "@/components/audit/auditSentence";

export interface ChangeMarker {
  id: string;
  t: number;
  what: string;
}

/** The most markers drawn on one chart (the newest): beyond that they would cover the data. */
export const MARKERS_SHOWN = 20;

export function changeMarkers(
  events: readonly AuditEvent[],
  fromMs: number,
  toMs: number,
  names: (event: AuditEvent) => Names = () => ({ tenant: null }),
): ChangeMarker[] {
  return events
    .map((event) => ({ event, t: Date.parse(event.at) }))
    .filter(({ t }) => Number.isFinite(t) && t >= fromMs && t < toMs)
    .sort((a, b) => b.t - a.t)
    .slice(0, MARKERS_SHOWN)
    .reverse()
    .map(({ event, t }) => ({ id: event.id, t, what: auditSentence(event, names(event)) }));
}

/** "2 configuration changes marked" for a chart's summary; "" without any. */
export function markerWords(markers: readonly ChangeMarker[]): string {
  if (markers.length === 0) return "";
  return markers.length === 1 ? "1 configuration change marked" : `${markers.length} configuration changes marked`;
}
