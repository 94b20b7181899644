"use client";
/**
 * A choice of time range as a row of toggle buttons: the monitoring views offer the three presets
 * the monitoring API knows (RANGES); the simulator offers its own.
 */

export type Range = "5m" | "1h" | "24h";

export interface RangeOption<R extends string> {
  value: R;
  label: string;
}

export const RANGES: readonly RangeOption<Range>[] = [
  { value: "5m", label: "5 min" },
  { value: "1h", label: "1 hour" },
  { value: "24h", label: "24 hours" },
];

export function isRange(value: unknown): value is Range {
  return value === "5m" || value === "1h" || value === "24h";
}

export function RangePicker<R extends string>({
  value,
  onChange,
  options,
}: {
  value: R;
  onChange: (range: R) => void;
  options: readonly RangeOption<R>[];
}) {
  return (
    <div className="segmented" role="group" aria-label="Time range">
      {options.map((range) => (
        <button key={range.value} type="button" aria-pressed={value === range.value} onClick={() => onChange(range.value)}>
          {range.label}
        </button>
      ))}
    </div>
  );
}
