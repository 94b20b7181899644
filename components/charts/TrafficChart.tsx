"use client";
/**
 * Allowed and refused requests per second, stacked, with what shadow rules would have refused
 * drawn apart as a dashed line (those requests were admitted, so they are inside "allowed").
 * Counts per bucket are divided by the bucket length: the average rate over each bucket.
 */
import { Area, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { ALLOWED_COLOUR, formatCount, formatRate, formatTick, formatTime, RANGE_WORDS, REFUSED_COLOUR, SHADOW_COLOUR } from "./chartFormat";
import { LiveQueryBody } from "./LiveQueryBody";
import type { Range } from "./RangePicker";
import { useTraffic, type TrafficSeries } from "./useMonitoring";

export function trafficRows(series: TrafficSeries) {
  const seconds = series.stepMs / 1000;
  return series.points.map((p) => ({ t: p.t, allowed: p.allowed / seconds, refused: p.refused / seconds, shadowRefused: p.shadowRefused / seconds }));
}

export function trafficTotals(series: TrafficSeries) {
  const totals = { allowed: 0, refused: 0, shadowRefused: 0 };
  for (const p of series.points) {
    totals.allowed += p.allowed;
    totals.refused += p.refused;
    totals.shadowRefused += p.shadowRefused;
  }
  return totals;
}

export function TrafficChart({ tenantId, rule, range, title = "Requests per second" }: { tenantId?: string; rule?: string; range: Range; title?: string }) {
  const query = useTraffic({ tenantId, rule, range });
  const series = query.data;
  const drawn = series ? { series, totals: trafficTotals(series) } : null;
  const hint = series ? `Average per second over each ${series.stepMs / 1000} s, ${RANGE_WORDS[range]}.` : undefined;

  return (
    <ChartCard title={title} hint={hint}>
      <LiveQueryBody
        query={query}
        data={drawn}
        loadingLabel="Loading traffic…"
        isEmpty={({ totals }) => totals.allowed + totals.refused + totals.shadowRefused === 0}
        empty={<>No requests in {RANGE_WORDS[range]}.</>}
      >
        {({ series, totals }) => (
          <>
            <p className="traffic-totals" data-testid="traffic-totals">
              <span>{formatCount(totals.allowed)} allowed</span> · <span>{formatCount(totals.refused)} refused</span> ·{" "}
              <span>{formatCount(totals.shadowRefused)} would be refused by shadow rules</span>
            </p>
            <div className="chart-frame" role="img" aria-label={`Requests per second: ${totals.allowed} allowed, ${totals.refused} refused, ${totals.shadowRefused} would be refused by shadow rules`}>
              <ComposedChart responsive style={{ width: "100%", height: 260 }} data={trafficRows(series)} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
                <XAxis dataKey="t" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={(t: number) => formatTick(t, range)} minTickGap={40} />
                <YAxis width={48} tickFormatter={(v: number) => formatRate(v)} allowDecimals />
                <Tooltip labelFormatter={(t) => formatTime(Number(t))} formatter={(v) => `${formatRate(Number(v))} /s`} />
                <Legend />
                <Area type="stepAfter" dataKey="allowed" name="Allowed" stackId="requests" stroke={ALLOWED_COLOUR} fill={ALLOWED_COLOUR} fillOpacity={0.35} isAnimationActive={false} />
                <Area type="stepAfter" dataKey="refused" name="Refused (429)" stackId="requests" stroke={REFUSED_COLOUR} fill={REFUSED_COLOUR} fillOpacity={0.5} isAnimationActive={false} />
                <Line type="stepAfter" dataKey="shadowRefused" name="Shadow: would refuse" stroke={SHADOW_COLOUR} strokeDasharray="6 4" strokeWidth={2} dot={false} isAnimationActive={false} />
              </ComposedChart>
            </div>
          </>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}
