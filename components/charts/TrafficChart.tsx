"use client";
/**
 * Allowed and refused requests per second, stacked, with what shadow rules would have refused
 * drawn apart as a dashed line (those requests were admitted, so they are inside "allowed").
 * Counts per bucket are divided by the bucket's length: the average rate over each bucket (over
 * the elapsed part of the partial last bucket, which is shaded). Each series can be hidden.
 */
import { ChartCard } from "./ChartCard";
import { formatCount, formatRate } from "@/components/format/numberFormat";
import { shadowWords, trafficSummary, trafficTotals } from "./trafficTotals";
import { LiveQueryBody } from "./LiveQueryBody";
import { SeriesToggles, useHiddenSeries } from "./SeriesToggles";
import { bucketSeconds, partialBucket, undrawnPartial } from "./timeSeries";
import { refusalLine, requestAreas, requestSeries, TimeSeriesFrame } from "./TimeSeriesFrame";
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
    ...requestSeries(palette),
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
              <TimeSeriesFrame
                label={`${title}, ${words}: ${summary}.`}
                rows={rows}
                fromMs={series.fromMs}
                toMs={series.toMs}
                partial={partial}
                markers={markers}
                palette={palette}
                yAxis={{ tickFormatter: (v: number) => formatRate(v), allowDecimals: true }}
                format={(v) => `${formatRate(v)} /s`}
              >
                {requestAreas(palette, hidden)}
                {refusalLine({
                  dataKey: "shadowRefused",
                  name: "Shadow: would refuse",
                  colour: palette.shadow,
                  hide: hidden.has("shadowRefused"),
                })}
              </TimeSeriesFrame>
            </>
          );
        }}
      </LiveQueryBody>
    </ChartCard>
  );
}
