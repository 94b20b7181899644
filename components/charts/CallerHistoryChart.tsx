"use client";
/**
 * One caller's traffic over time (issue 31, point 3): its allowed and refused requests per minute
 * (per hour past 1 h), stacked, with a line per rule for the requests that rule refused (a request
 * refused by two rules is on both lines), the configuration changes of its tenant as dashed
 * vertical lines, and the last complete minute (and the running one) in words. The key page and the caller page (JWT
 * subjects, anonymous addresses) show it.
 */
import { ChartCard } from "./ChartCard";
import { formatCount } from "@/components/format/numberFormat";
import { changeMarkers, markerWords } from "./changeMarkers";
import { seriesColour } from "./chartPalette";
import { callerHistoryRows, callerNowLine, ruleColumn, ruleLegend } from "./callerHistoryRows";
import { LiveQueryBody } from "./LiveQueryBody";
import { SeriesToggles, useHiddenSeries } from "./SeriesToggles";
import { partialBucket } from "./timeSeries";
import { refusalLine, requestAreas, requestSeries, TimeSeriesFrame } from "./TimeSeriesFrame";
import { useState } from "react";
import { RangePicker } from "./RangePicker";
import { PRESETS, rangeWords, type Preset } from "./timeRange";
import { useChartPalette } from "./useChartPalette";
import { useCallerHistory, useChangeEvents } from "./useMonitoring";
import type { MonitoringView } from "./useMonitoringView";

const TITLE = "Traffic and refusals by rule";

/** The ranges offered (per minute up to 1 h, per hour beyond); the last hour first. */
const RANGES = PRESETS.filter((p) => ["15m", "1h", "6h", "24h"].includes(p.value));

export function CallerHistoryChart({ tenantId, caller }: { tenantId: string; caller: string }) {
  const [preset, setPreset] = useState<Preset>("1h");
  const view: MonitoringView = { range: { preset }, paused: false };
  const query = useCallerHistory({ tenantId, caller, view });
  const palette = useChartPalette();
  const { hidden, toggle } = useHiddenSeries();
  const history = query.data;
  const changes = useChangeEvents({ tenantId, fromMs: history?.fromMs, view });
  const words = rangeWords(view.range);
  const per = history?.resolution === "hour" ? "hour" : "minute";

  return (
    <ChartCard
      title={TITLE}
      actions={<RangePicker value={preset} onChange={setPreset} options={RANGES} />}
      hint={`Requests per ${per}, ${words}: allowed and refused stacked, a line per rule for the requests it refused; the minute still filling is shaded. Dashed vertical lines: configuration changes.`}
    >
      <LiveQueryBody
        query={query}
        data={history}
        loadingLabel="Loading traffic…"
        isEmpty={(h) => h.totals.requests === 0}
        empty={<>No requests in {words}.</>}
      >
        {(h) => {
          const all = callerHistoryRows(h);
          const partial = partialBucket(
            all.map((r) => r.t),
            h.stepMs,
            h.toMs,
          );
          // The minute still filling is drawn (counts, not rates: it can only read low), shaded; the
          // last period's step is closed at its end (or at now) by a copy of it there.
          const last = all[all.length - 1];
          const rows = last ? [...all, { ...last, t: Math.min(last.t + h.stepMs, h.toMs) }] : all;
          const markers = changeMarkers(changes, h.fromMs, h.toMs);
          const keys = [
            ...requestSeries(palette),
            ...h.rules.map((rule, i) => ({
              key: ruleColumn(rule.ref),
              label: ruleLegend(rule),
              colour: seriesColour(palette, i),
              dashed: true,
            })),
          ];
          const byRule = h.rules.map((r) => `${formatCount(r.refused)} by ${r.name ?? `rule ${r.ref}`}`).join(", ");
          const summary = [
            `${formatCount(h.totals.requests)} requests, ${formatCount(h.totals.refused)} refused${byRule ? ` (${byRule})` : ""}`,
            markerWords(markers),
          ]
            .filter(Boolean)
            .join("; ");
          return (
            <>
              <p className="traffic-totals" data-testid="caller-totals">
                {summary}
              </p>
              <p className="traffic-now" data-testid="caller-now">
                Now: <strong>{callerNowLine(h)}</strong>
              </p>
              <SeriesToggles chart={TITLE} series={keys} hidden={hidden} onToggle={toggle} />
              <TimeSeriesFrame
                label={`${TITLE}, ${words}: ${summary}.`}
                rows={rows}
                fromMs={h.fromMs}
                toMs={h.toMs}
                partial={partial}
                markers={markers}
                palette={palette}
                yAxis={{ tickFormatter: (v: number) => formatCount(v), allowDecimals: false }}
                format={(v) => `${formatCount(v)} / ${per}`}
              >
                {requestAreas(palette, hidden)}
                {h.rules.map((rule, i) =>
                  refusalLine({
                    dataKey: ruleColumn(rule.ref),
                    name: ruleLegend(rule),
                    colour: seriesColour(palette, i),
                    hide: hidden.has(ruleColumn(rule.ref)),
                  }),
                )}
              </TimeSeriesFrame>
            </>
          );
        }}
      </LiveQueryBody>
    </ChartCard>
  );
}
