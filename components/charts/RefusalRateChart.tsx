"use client";
/**
 * The 429 rate in % over time of the top N tenants (the default without tenantId) or rules (the
 * default with tenantId; `by="rule"` without tenantId: the rules refusing most across tenants).
 * Each series can be hidden with its toggle; the tooltip lists the shown series at that time,
 * highest first. Shadow rules show what they would refuse, dashed. The partial last bucket is
 * shaded. A table under the chart gives each line's rate over the whole range (and is what a
 * screen reader reads; the plot itself is an image with a summary).
 */
import { Line } from "recharts";
import { ChartCard } from "./ChartCard";
import { formatCount, formatPct } from "@/components/format/numberFormat";
import { seriesColour } from "./chartPalette";
import { DataTable } from "@/components/tables/DataTable";
import { RuleLink, TenantLink } from "@/components/tables/entityLinks";
import { LiveQueryBody } from "./LiveQueryBody";
import { rateChart, type ChartLine } from "./refusalRateLines";
import { SeriesToggles, useHiddenSeries } from "./SeriesToggles";
import { partialBucket, undrawnPartial } from "./timeSeries";
import { TimeSeriesFrame } from "./TimeSeriesFrame";
import { changeMarkers, markerWords } from "./changeMarkers";
import { rangeWords } from "./timeRange";
import { useChartPalette } from "./useChartPalette";
import { useChangeEvents, useRefusalRate, type RefusalRates } from "./useMonitoring";
import type { MonitoringView } from "./useMonitoringView";

/** Series drawn: the tenants or rules refusing most. */
export const TOP_N = 5;

/** The top of the % axis: the smallest round value above the data, at most 100. */
const Y_STOPS = [1, 2, 5, 10, 20, 50, 100];
const yMax = (dataMax: number) => Y_STOPS.find((stop) => stop >= dataMax * 1.05) ?? 100;

type RateLine = RefusalRates["byTenant"][number];

function LineName({ line, source, withTenant }: { line: ChartLine; source: RateLine; withTenant: boolean }) {
  if (!source.rule) return <TenantLink tenantId={source.tenantId} tenantName={source.tenantName} />;
  return (
    <>
      {withTenant ? (
        <>
          <TenantLink tenantId={source.tenantId} tenantName={source.tenantName} />
          {" · "}
        </>
      ) : null}
      <RuleLink tenantId={source.tenantId} rule={source.rule} />
      {line.shadow ? <span className="muted"> (shadow)</span> : null}
    </>
  );
}

export function RefusalRateChart({
  tenantId,
  view,
  by = tenantId ? "rule" : "tenant",
}: {
  tenantId?: string;
  view: MonitoringView;
  by?: "tenant" | "rule";
}) {
  const query = useRefusalRate({ tenantId, limit: TOP_N, view });
  const palette = useChartPalette();
  const { hidden, toggle } = useHiddenSeries();
  const data = query.data;
  const changes = useChangeEvents({ tenantId, fromMs: data?.fromMs, view });
  const sources = data ? (by === "tenant" ? data.byTenant : data.byRule) : [];
  const withTenant = by === "rule" && !tenantId;
  const chart = data ? rateChart(sources, withTenant) : null;
  const what = by === "tenant" ? "tenants" : "rules";
  const title = by === "tenant" ? "429 rate per tenant" : "429 rate per rule";
  const words = rangeWords(view.range);

  return (
    <ChartCard
      title={title}
      hint={`Share of requests refused, ${words}: the ${TOP_N} ${what} refusing most. Dashed: what a shadow rule would refuse.`}
    >
      <LiveQueryBody
        query={query}
        data={chart}
        loadingLabel="Loading 429 rates…"
        isEmpty={(c) => !c.lines.some((l) => l.requests > 0)}
        empty={<>No requests in {words}.</>}
      >
        {(chart) => {
          const series = chart.lines.map((line, i) => ({
            key: line.key,
            label: line.label,
            colour: seriesColour(palette, i),
            dashed: line.shadow,
          }));
          const partial = partialBucket(
            chart.rows.map((r) => r.t),
            data!.stepMs,
            data!.toMs,
          );
          const rows = undrawnPartial(chart.rows, partial, "gap");
          const markers = changeMarkers(changes, data!.fromMs, data!.toMs);
          const summary = [
            chart.lines.map((line) => `${line.label} ${formatPct(line.pct)}`).join(", "),
            markerWords(markers),
          ]
            .filter(Boolean)
            .join("; ");
          return (
            <>
              <SeriesToggles chart={title} series={series} hidden={hidden} onToggle={toggle} />
              <TimeSeriesFrame
                label={`${title}, ${words}: ${summary}.`}
                testId="rate-chart"
                height={240}
                rows={rows}
                fromMs={data!.fromMs}
                toMs={data!.toMs}
                partial={partial}
                markers={markers}
                palette={palette}
                yAxis={{ unit: "%", domain: [0, yMax], allowDecimals: false }}
                format={(v) => formatPct(v)}
              >
                {series.map((s) => (
                  <Line
                    key={s.key}
                    type="linear"
                    dataKey={s.key}
                    name={s.label}
                    hide={hidden.has(s.key)}
                    stroke={s.colour}
                    strokeWidth={2}
                    strokeDasharray={s.dashed ? "6 4" : undefined}
                    // Dots, because a bucket between two empty ones has no segment to draw.
                    dot={{ r: 2 }}
                    isAnimationActive={false}
                  />
                ))}
              </TimeSeriesFrame>
              <DataTable
                label={`${title}, ${words}`}
                columns={[
                  { label: by === "tenant" ? "Tenant" : "Rule" },
                  { label: "Requests", num: true },
                  { label: "429 rate", num: true },
                ]}
              >
                {chart.lines.map((line, i) => (
                  <tr key={line.key}>
                    <td>
                      <LineName line={line} source={sources[i]!} withTenant={withTenant} />
                    </td>
                    <td className="num">{formatCount(line.requests)}</td>
                    <td className="num">{formatPct(line.pct)}</td>
                  </tr>
                ))}
              </DataTable>
            </>
          );
        }}
      </LiveQueryBody>
    </ChartCard>
  );
}
