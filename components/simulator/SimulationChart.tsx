"use client";
/**
 * Requests per minute over the replayed range, the current rules and the candidate on one chart:
 * the current rules as faint stacked bars (allowed below, refused on top: the bar's height is the
 * traffic), the candidate as bold dashed lines over them. Colour says allowed or refused, the
 * style says which rules. Bars, not areas, so a range of a minute or two still shows: a line or
 * an area needs two points, so the lines get dots when there are few minutes.
 */
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "@/components/format/numberFormat";
import { useChartPalette } from "@/components/charts/useChartPalette";
import { formatClock, formatDateTime, timeTicks } from "@/components/format/dateFormat";
import type { SimulationResult } from "@/lib/control/simulator/simulationResult";
import { simulationRows } from "./simulationRows";

const DOTS_UP_TO_MINUTES = 30;

export function SimulationChart({ result }: { result: SimulationResult }) {
  const { current, candidate } = result;
  const rows = simulationRows(result);
  const { allowed, refused } = useChartPalette();
  // Ticks on round times, with the date where a day starts (the same as the live charts).
  const ticks = rows.length > 0 ? timeTicks(rows[0]!.minuteMs, rows[rows.length - 1]!.minuteMs) : [];
  const tickLabels = new Map(ticks.map((tick) => [tick.t, tick.label]));
  // A solid dot: the line's dash pattern would break a small circle up.
  const dot = (colour: string) =>
    rows.length <= DOTS_UP_TO_MINUTES ? { r: 4, fill: colour, strokeDasharray: "0" } : false;
  const label =
    `Requests per minute: current rules ${current.allowed} allowed and ${current.refused} refused; ` +
    `candidate rules ${candidate.allowed} allowed and ${candidate.refused} refused`;
  return (
    <div className="chart-frame" role="img" aria-label={label} data-testid="simulation-chart">
      <ComposedChart
        responsive
        style={{ width: "100%", height: 280 }}
        data={rows}
        margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
        barCategoryGap="10%"
      >
        <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
        <XAxis
          dataKey="minuteMs"
          ticks={ticks.length > 1 ? ticks.map((tick) => tick.t) : undefined}
          tickFormatter={(t: number) => tickLabels.get(t) ?? formatClock(t, undefined, false)}
          minTickGap={40}
        />
        <YAxis width={48} allowDecimals={false} tickFormatter={(v: number) => formatCount(v)} />
        <Tooltip
          labelFormatter={(t) => `Minute from ${formatDateTime(Number(t))}`}
          formatter={(v) => `${formatCount(Number(v))} requests`}
        />
        <Legend />
        <Bar
          dataKey="currentAllowed"
          name="Current: allowed"
          stackId="current"
          fill={allowed}
          fillOpacity={0.3}
          isAnimationActive={false}
        />
        <Bar
          dataKey="currentRefused"
          name="Current: refused"
          stackId="current"
          fill={refused}
          fillOpacity={0.3}
          isAnimationActive={false}
        />
        <Line
          type="stepAfter"
          dataKey="candidateAllowed"
          name="Candidate: allowed"
          stroke={allowed}
          strokeWidth={2.5}
          strokeDasharray="6 4"
          dot={dot(allowed)}
          isAnimationActive={false}
        />
        <Line
          type="stepAfter"
          dataKey="candidateRefused"
          name="Candidate: refused"
          stroke={refused}
          strokeWidth={2.5}
          strokeDasharray="6 4"
          dot={dot(refused)}
          isAnimationActive={false}
        />
      </ComposedChart>
    </div>
  );
}
