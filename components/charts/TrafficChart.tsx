"use client";
/**
 * Allowed and refused requests per second, stacked, with what shadow rules would have refused
 * drawn apart as a dashed line (those requests were admitted, so they are inside "allowed").
 * Counts per bucket are divided by the bucket's length: the average rate over each bucket (over
 * the elapsed part of the partial last bucket, which is shaded). Each series can be hidden.
 */
import { Area, CartesianGrid, ComposedChart, Line, ReferenceArea, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { formatCount, formatRate } from "@/components/format/numberFormat";
import { shadowWords, trafficSummary, trafficTotals } from "./trafficTotals";
import { ChartTooltip } from "./ChartTooltip";
import { LiveQueryBody } from "./LiveQueryBody";
import { SeriesToggles, useHiddenSeries } from "./SeriesToggles";
import { bucketSeconds, partialBucket, timeAxis, undrawnPartial } from "./timeSeries";
import { changeLines } from "./ChangeLines";
import { changeMarkers, markerWords } from "./changeMarkers";
import { rangeWords } from "./timeRange";
import { useChartPalette } from "./useChartPalette";
import { useChangeEvents, useTraffic, type TrafficSeries } from "./useMonitoring";
import type { MonitoringView } from "./useMonitoringView";

export function trafficRows(series: TrafficSeries) {
  return series.points.map((p) => {
    const seconds = bucketSeconds(p.t, series.stepMs, series.toMs);
    return {
      t: p.t,
      allowed: p.allowed / seconds,
      refused: p.refused / seconds,
      shadowRefused: p.shadowRefused / seconds,
    };
  });
}

/** Requests per second over the series' `current` window (the last complete seconds). */
export function currentRate(series: TrafficSeries): { allowed: number; refused: number; seconds: number } {
  const seconds = Math.max(1, (series.current.toMs - series.current.fromMs) / 1000);
  return { allowed: series.current.allowed / seconds, refused: series.current.refused / seconds, seconds };
}

const bucketWords = (stepMs: number) => (stepMs % 60_000 === 0 ? `${stepMs / 60_000} min` : `${stepMs / 1000} s`);

export function TrafficChart({
  tenantId,
  rule,
  view,
  title = "Requests per second",
}: {
  tenantId?: string;
  rule?: string;
  view: MonitoringView;
  title?: string;
}) {
  const query = useTraffic({ tenantId, rule, view });
  const palette = useChartPalette();
  const { hidden, toggle } = useHiddenSeries();
  const series = query.data;
  const changes = useChangeEvents({ tenantId, fromMs: series?.fromMs, view });
  const drawn = series ? { series, totals: trafficTotals(series) } : null;
  const words = rangeWords(view.range);
  const hint = series
    ? `Average per second over each ${bucketWords(series.stepMs)}, ${words}; the last bucket, still filling, is not drawn. Dashed vertical lines: configuration changes.`
    : undefined;
  const keys = [
    { key: "allowed", label: "Allowed", colour: palette.allowed },
    { key: "refused", label: "Refused (429)", colour: palette.refused },
    { key: "shadowRefused", label: "Shadow: would refuse", colour: palette.shadow, dashed: true },
  ];

  return (
    <ChartCard title={title} hint={hint}>
      <LiveQueryBody
        query={query}
        data={drawn}
        loadingLabel="Loading traffic…"
        isEmpty={({ totals }) => totals.allowed + totals.refused + totals.shadowRefused === 0}
        empty={<>No requests in {words}.</>}
      >
        {({ series, totals }) => {
          const all = trafficRows(series);
          const partial = partialBucket(
            all.map((r) => r.t),
            series.stepMs,
            series.toMs,
          );
          const rows = undrawnPartial(all, partial, "close");
          const markers = changeMarkers(changes, series.fromMs, series.toMs);
          const summary = [trafficSummary(totals), markerWords(markers)].filter(Boolean).join("; ");
          const now = currentRate(series);
          return (
            <>
              <p className="traffic-totals" data-testid="traffic-totals">
                <span>{formatCount(totals.allowed)} allowed</span> · <span>{formatCount(totals.refused)} refused</span>{" "}
                ·{" "}
                <span title="Allowed requests a shadow rule would have refused. A shadow rule's own line counts every request it would refuse, including those refused anyway.">
                  {shadowWords(totals)}
                </span>
              </p>
              <p className="traffic-now" data-testid="traffic-now">
                Now: <strong>{formatRate(now.allowed)} /s</strong> allowed ·{" "}
                <strong>{formatRate(now.refused)} /s</strong> refused{" "}
                <span className="muted">(last {now.seconds} s)</span>
              </p>
              <SeriesToggles chart={title} series={keys} hidden={hidden} onToggle={toggle} />
              <div className="chart-frame" role="img" aria-label={`${title}, ${words}: ${summary}.`}>
                <ComposedChart
                  responsive
                  style={{ width: "100%", height: 260 }}
                  data={rows}
                  margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
                >
                  <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
                  <XAxis {...timeAxis(series.fromMs, series.toMs)} />
                  <YAxis width={48} tickFormatter={(v: number) => formatRate(v)} allowDecimals />
                  {partial ? (
                    <ReferenceArea
                      x1={partial.t}
                      x2={series.toMs}
                      fill={palette.partial}
                      fillOpacity={0.12}
                      ifOverflow="hidden"
                      label={{ value: "partial", position: "insideTopRight", fill: palette.partial, fontSize: 11 }}
                    />
                  ) : null}
                  {changeLines(markers, palette.partial)}
                  <Tooltip
                    position={{ y: 0 }}
                    wrapperStyle={{ pointerEvents: "none", zIndex: 1 }}
                    isAnimationActive={false}
                    content={(props) => (
                      <ChartTooltip {...props} partial={partial} format={(v) => `${formatRate(v)} /s`} />
                    )}
                  />
                  <Area
                    type="stepAfter"
                    dataKey="allowed"
                    name="Allowed"
                    hide={hidden.has("allowed")}
                    stackId="requests"
                    stroke={palette.allowed}
                    fill={palette.allowed}
                    fillOpacity={0.3}
                    isAnimationActive={false}
                  />
                  <Area
                    type="stepAfter"
                    dataKey="refused"
                    name="Refused (429)"
                    hide={hidden.has("refused")}
                    stackId="requests"
                    stroke={palette.refused}
                    fill={palette.refused}
                    fillOpacity={0.5}
                    isAnimationActive={false}
                  />
                  <Line
                    type="stepAfter"
                    dataKey="shadowRefused"
                    name="Shadow: would refuse"
                    hide={hidden.has("shadowRefused")}
                    stroke={palette.shadow}
                    strokeDasharray="6 4"
                    strokeWidth={2}
                    dot={false}
                    isAnimationActive={false}
                  />
                </ComposedChart>
              </div>
            </>
          );
        }}
      </LiveQueryBody>
    </ChartCard>
  );
}
