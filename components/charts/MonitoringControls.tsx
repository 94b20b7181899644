"use client";
/**
 * The controls above a page's monitoring views: the range presets, a custom range (start and end
 * in the browser's time zone, checked before it is applied) and Pause, which stops the live
 * updates so what is on screen can be read; with a line saying what is shown.
 */
import { useState, type FormEvent } from "react";
import { formatClock, formatDateTime } from "@/components/format/dateFormat";
import { DATE_TIME_PLACEHOLDER, parseDateText } from "@/components/format/dateInput";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";
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
  const [from, setFrom] = useState(() => formatDateTime(initial.fromMs));
  const [to, setTo] = useState(() => formatDateTime(initial.toMs));
  const [problem, setProblem] = useState<string | null>(null);

  function apply(event: FormEvent) {
    event.preventDefault();
    const fromMs = parseDateText(from, true) ?? Number.NaN;
    const toMs = parseDateText(to, true) ?? Number.NaN;
    const nowMs = Date.now();
    const unreadable = [from, to].some((text, i) => text.trim() !== "" && Number.isNaN([fromMs, toMs][i]));
    const found = unreadable
      ? `Write dates such as ${DATE_TIME_PLACEHOLDER}.`
      : customRangeProblem(fromMs, Math.min(toMs, nowMs), nowMs);
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
          value={from}
          placeholder={DATE_TIME_PLACEHOLDER}
          autoComplete="off"
          onChange={(e) => setFrom(e.target.value)}
        />
        <TextField
          id="range-to"
          label="To"
          value={to}
          placeholder={DATE_TIME_PLACEHOLDER}
          autoComplete="off"
          onChange={(e) => setTo(e.target.value)}
        />
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
