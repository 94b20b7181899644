"use client";
/** The time range of the monitoring views: the three presets the monitoring API knows. */

export type Range = "5m" | "1h" | "24h";

export const RANGES: readonly { value: Range; label: string }[] = [
  { value: "5m", label: "5 min" },
  { value: "1h", label: "1 hour" },
  { value: "24h", label: "24 hours" },
];

export function isRange(value: unknown): value is Range {
  return value === "5m" || value === "1h" || value === "24h";
}

export function RangePicker({ value, onChange }: { value: Range; onChange: (range: Range) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Time range">
      {RANGES.map((range) => (
        <button key={range.value} type="button" aria-pressed={value === range.value} onClick={() => onChange(range.value)}>
          {range.label}
        </button>
      ))}
    </div>
  );
}
