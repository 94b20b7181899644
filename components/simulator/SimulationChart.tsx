"use client";
/**
 * Requests allowed and refused per minute over the replayed range, for the current rules and the
 * candidate on one chart: colour says allowed or refused, style says which rules (the current
 * rules as faint filled areas, the candidate as bold dashed lines over them), so where the two
 * agree the line lies on the edge of the area, and where they differ the gap shows.
 */
import { Area, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { ALLOWED_COLOUR, formatCount, formatMinuteTick, formatTime, REFUSED_COLOUR } from "@/components/charts/chartFormat";
import { simulationRows } from "./simulationRows";
import type { SimulationResult } from "@/lib/simulator/simulationResult";

export function SimulationChart({ result }: { result: SimulationResult }) {
  const { current, candidate } = result;
  const label =
    `Requests per minute: current rules ${current.allowed} allowed and ${current.refused} refused; ` +
    `candidate rules ${candidate.allowed} allowed and ${candidate.refused} refused`;
  return (
    <div className="chart-frame" role="img" aria-label={label} data-testid="simulation-chart">
      <ComposedChart responsive style={{ width: "100%", height: 280 }} data={simulationRows(result)} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
        <XAxis dataKey="minuteMs" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={formatMinuteTick} minTickGap={40} />
        <YAxis width={48} allowDecimals={false} tickFormatter={(v: number) => formatCount(v)} />
        <Tooltip labelFormatter={(t) => `Minute from ${formatTime(Number(t))}`} formatter={(v) => `${formatCount(Number(v))} requests`} />
        <Legend />
        <Area type="stepAfter" dataKey="currentAllowed" name="Current: allowed" stroke={ALLOWED_COLOUR} fill={ALLOWED_COLOUR} fillOpacity={0.2} strokeOpacity={0.6} isAnimationActive={false} />
        <Area type="stepAfter" dataKey="currentRefused" name="Current: refused" stroke={REFUSED_COLOUR} fill={REFUSED_COLOUR} fillOpacity={0.2} strokeOpacity={0.6} isAnimationActive={false} />
        <Line type="stepAfter" dataKey="candidateAllowed" name="Candidate: allowed" stroke={ALLOWED_COLOUR} strokeWidth={2.5} strokeDasharray="6 4" dot={false} isAnimationActive={false} />
        <Line type="stepAfter" dataKey="candidateRefused" name="Candidate: refused" stroke={REFUSED_COLOUR} strokeWidth={2.5} strokeDasharray="6 4" dot={false} isAnimationActive={false} />
      </ComposedChart>
    </div>
  );
}
