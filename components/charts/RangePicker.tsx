"use client";
/**
 * A choice of time range as a row of toggle buttons: the monitoring views offer their presets
 * (timeRange.ts, with a custom range beside them: MonitoringControls.tsx); the simulator its own.
 */

export interface RangeOption<R extends string> {
  value: R;
  label: string;
}

export function RangePicker<R extends string>({
  value,
  onChange,
  options,
}: {
  /** null when none of the options is in force (e.g. a custom range). */
  value: R | null;
  onChange: (range: R) => void;
  options: readonly RangeOption<R>[];
}) {
  return (
    <div className="segmented" role="group" aria-label="Time range">
      {options.map((range) => (
        <button
          key={range.value}
          type="button"
          aria-pressed={value === range.value}
          onClick={() => onChange(range.value)}
        >
          {range.label}
        </button>
      ))}
    </div>
  );
}
