"use client";
/**
 * The legend of a chart as toggle buttons: one per series, with its colour (dashed for a shadow
 * series); pressing one hides or shows that series. Hidden series are remembered by key, so a
 * series keeps its state when the ranking changes under it.
 */
import { useState } from "react";

export interface SeriesKey {
  key: string;
  label: string;
  colour: string;
  dashed?: boolean;
}

export function useHiddenSeries() {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (key: string) =>
    setHidden((old) => {
      const next = new Set(old);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  return { hidden, toggle };
}

export function SeriesToggles({
  chart,
  series,
  hidden,
  onToggle,
}: {
  chart: string;
  series: readonly SeriesKey[];
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
}) {
  return (
    <div className="series-toggles" role="group" aria-label={`Series of ${chart}`}>
      {series.map((s) => (
        <button
          key={s.key}
          type="button"
          aria-pressed={!hidden.has(s.key)}
          onClick={() => onToggle(s.key)}
          title={hidden.has(s.key) ? "Show this series" : "Hide this series"}
        >
          <span
            className={s.dashed ? "swatch swatch-dashed" : "swatch"}
            style={{ borderColor: s.colour, background: s.dashed ? "transparent" : s.colour }}
            aria-hidden="true"
          />
          <span className="name">{s.label}</span>
        </button>
      ))}
    </div>
  );
}
