"use client";
/**
 * The 429 rate in % over time: per tenant (the default without tenantId), or per rule (the
 * default with tenantId; `by="rule"` without tenantId shows the rules refusing most across
 * tenants). Shadow rules show what they would refuse, dashed. A table under the chart gives each
 * line's rate over the whole range.
 */
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { formatCount, formatPct, formatTick, formatTime, RANGE_WORDS, SERIES_COLOURS } from "./chartFormat";
import { LiveQueryBody } from "./LiveQueryBody";
import type { Range } from "./RangePicker";
import { rateChart } from "./refusalRateLines";
import { useRefusalRate } from "./useMonitoring";

/** The top of the % axis: the smallest round value above the data, at most 100. */
const Y_STOPS = [1, 2, 5, 10, 20, 50, 100];
const yMax = (dataMax: number) => Y_STOPS.find((stop) => stop >= dataMax * 1.05) ?? 100;

export function RefusalRateChart({ tenantId, range, by = tenantId ? "rule" : "tenant" }: { tenantId?: string; range: Range; by?: "tenant" | "rule" }) {
  const query = useRefusalRate({ tenantId, range });
  const data = query.data;
  const chart = data ? rateChart(by === "tenant" ? data.byTenant : data.byRule, by === "rule" && !tenantId) : null;
  const title = by === "tenant" ? "429 rate per tenant" : "429 rate per rule";

  return (
    <ChartCard title={title} hint={`Share of requests refused, ${RANGE_WORDS[range]}. Dashed: what a shadow rule would refuse.`}>
      <LiveQueryBody
        query={query}
        data={chart}
        loadingLabel="Loading 429 rates…"
        isEmpty={(c) => !c.lines.some((l) => l.requests > 0)}
        empty={<>No requests in {RANGE_WORDS[range]}.</>}
      >
        {(chart) => (
          <>
            <div className="chart-frame" role="img" aria-label={`${title} over ${RANGE_WORDS[range]}`}>
              <LineChart responsive style={{ width: "100%", height: 240 }} data={chart.rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
                <XAxis dataKey="t" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={(t: number) => formatTick(t, range)} minTickGap={40} />
                <YAxis width={48} unit="%" domain={[0, yMax]} allowDecimals={false} />
                <Tooltip labelFormatter={(t) => formatTime(Number(t))} formatter={(v) => formatPct(v === null || v === undefined ? null : Number(v))} />
                <Legend />
                {chart.lines.map((line, i) => (
                  <Line
                    key={line.key}
                    type="linear"
                    dataKey={line.key}
                    name={line.label}
                    stroke={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                    strokeWidth={2}
                    strokeDasharray={line.shadow ? "6 4" : undefined}
                    // Dots, because a bucket between two empty ones has no segment to draw.
                    dot={{ r: 2 }}
                    isAnimationActive={false}
                  />
                ))}
              </LineChart>
            </div>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">{by === "tenant" ? "Tenant" : "Rule"}</th>
                    <th scope="col" className="num">
                      Requests
                    </th>
                    <th scope="col" className="num">
                      429 rate
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {chart.lines.map((line) => (
                    <tr key={line.key}>
                      <td className="name">{line.label}</td>
                      <td className="num">{formatCount(line.requests)}</td>
                      <td className="num">{formatPct(line.pct)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}
