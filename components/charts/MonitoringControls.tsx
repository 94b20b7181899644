"use client";
/**
 * The controls above a page's monitoring views: the range presets, a custom range (start and end
 * in the browser's time zone, checked before it is applied) and Pause, which stops the live
 * updates so what is on screen can be read; with a line saying what is shown.
 */
import { useState, type FormEvent } from "react";
import { formatClock, toLocalInput } from "@/components/format/dateFormat";
import { FormError, SubmitButton } from "@/components/shell/FormError";
import { TextField } from "@/components/shell/TextField";
import { RangePicker } from "./RangePicker";
import { customRangeProblem, PRESETS, rangeWords, type TimeRange } from "./timeRange";
import type { MonitoringView } from "./useMonitoringView";

function CustomRangeForm({ range, onApply }: { range: TimeRange; onApply: (range: TimeRange) => void }) {
  const [initial] = useState(() => {
    const now = Date.now();
    return "preset" in range
      ? { fromMs: now - PRESETS.find((p) => p.value === range.preset)!.spanMs, toMs: now }
      : range;
  });
  const [from, setFrom] = useState(() => toLocalInput(initial.fromMs));
  const [to, setTo] = useState(() => toLocalInput(initial.toMs));
  const [problem, setProblem] = useState<string | null>(null);

  function apply(event: FormEvent) {
    event.preventDefault();
    const fromMs = from ? new Date(from).getTime() : Number.NaN;
    const toMs = to ? new Date(to).getTime() : Number.NaN;
    const nowMs = Date.now();
    const found = customRangeProblem(fromMs, Math.min(toMs, nowMs), nowMs);
    setProblem(found);
    if (!found) onApply({ fromMs, toMs: Math.min(toMs, nowMs) });
  }

  return (
    <form className="custom-range" onSubmit={apply} noValidate aria-label="Custom range">
      <FormError message={problem} />
      <div className="form-row">
        <TextField
          id="range-from"
          label="From (your local time)"
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <TextField id="range-to" label="To" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
        <div className="form-actions">
          <SubmitButton pending={false} pendingLabel="">
            Show range
          </SubmitButton>
        </div>
      </div>
    </form>
  );
}

export function MonitoringControls({
  view,
  setRange,
  pausedAt,
  setPaused,
}: {
  view: MonitoringView;
  setRange: (range: TimeRange) => void;
  pausedAt: number | null;
  setPaused: (paused: boolean) => void;
}) {
  const { range, paused } = view;
  const [customOpen, setCustomOpen] = useState(false);
  const isCustom = !("preset" in range);

  return (
    <div className="monitoring-controls">
      <div className="monitoring-buttons">
        <RangePicker
          value={"preset" in range ? range.preset : null}
          onChange={(preset) => {
            setCustomOpen(false);
            setRange({ preset });
          }}
          options={PRESETS}
        />
        <button
          type="button"
          aria-pressed={isCustom}
          aria-expanded={customOpen}
          onClick={() => setCustomOpen((open) => !open)}
        >
          Custom…
        </button>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
          Pause
        </button>
      </div>
      <p className="hint" role="status" data-testid="range-shown">
        Showing {rangeWords(range)}
        {paused && pausedAt !== null ? `, paused at ${formatClock(pausedAt)}` : isCustom ? "" : ", live"}.
      </p>
      {customOpen ? (
        <CustomRangeForm
          range={range}
          onApply={(next) => {
            setCustomOpen(false);
            setRange(next);
          }}
        />
      ) : null}
    </div>
  );
}
