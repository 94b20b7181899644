"use client";
/**
 * The tooltip of the time-series charts: the bucket's date and time, then the shown series at
 * that time, highest first, without empty ones; a partial last bucket says how much of it has
 * passed. Small on purpose: it sits at the top of the plot and never covers the card.
 */
import type { TooltipContentProps } from "recharts";
import { formatDateTime, formatWait } from "@/components/format/dateFormat";
import type { PartialBucket } from "./timeSeries";

interface Entry {
  name: string;
  value: number;
  colour: string;
}

export function ChartTooltip({
  active,
  payload,
  label,
  format,
  partial,
}: Pick<TooltipContentProps, "active" | "payload" | "label"> & {
  format: (value: number) => string;
  partial: PartialBucket | null;
}) {
  if (!active || label === undefined) return null;
  const t = Number(label);
  const entries: Entry[] = (payload ?? [])
    .filter((p) => typeof p.value === "number" && !p.hide)
    .map((p) => ({
      name: String(p.name),
      value: p.value as number,
      colour: String(p.color ?? p.stroke ?? "currentColor"),
    }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
  return (
    <div className="chart-tooltip">
      <p className="chart-tooltip-time">
        {formatDateTime(t, undefined, true)}
        {partial && partial.t === t ? (
          <span className="muted"> · partial, {formatWait(partial.elapsedMs)} so far</span>
        ) : null}
      </p>
      {entries.length === 0 ? <p className="muted">No requests.</p> : null}
      <ul>
        {entries.map((e) => (
          <li key={e.name}>
            <span className="swatch" style={{ borderColor: e.colour, background: e.colour }} aria-hidden="true" />
            <span className="name">{e.name}</span>
            <span className="num">{format(e.value)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
