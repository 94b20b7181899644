/**
 * Turns the refusal-rate answer into chart input: one line per tenant or per rule, pivoted into
 * rows by time. A shadow rule refuses nothing, so its line is the rate it WOULD refuse (drawn
 * dashed); every other line is the real 429 rate. Buckets without requests stay gaps (null).
 * A line's key names what it draws (tenant, or tenant and rule), so it survives a new ranking.
 */
import type { RefusalRates } from "@/lib/monitoring/query/monitoringAnswers";

type RateLine = RefusalRates["byTenant"][number];

export interface ChartLine {
  key: string;
  label: string;
  shadow: boolean;
  requests: number;
  pct: number | null;
  tenantId: string;
}

export type RateRow = { t: number } & Record<string, number | null>;

export function lineLabel(line: RateLine, withTenant: boolean): string {
  const tenant = line.tenantName ?? line.tenantId;
  if (!line.rule) return tenant;
  const rule = line.rule.name ?? `deleted rule (${line.rule.ref})`;
  return withTenant ? `${tenant} · ${rule}` : rule;
}

/** A key that is safe as a Recharts dataKey (no dots): tenant ids and rule refs hold none. */
export function lineKey(line: RateLine): string {
  return line.rule ? `${line.tenantId}:${line.rule.ref}` : line.tenantId;
}

export function rateChart(lines: RateLine[], withTenant: boolean): { lines: ChartLine[]; rows: RateRow[] } {
  const chartLines = lines.map((line) => {
    const shadow = line.rule?.mode === "shadow";
    return {
      key: lineKey(line),
      label: lineLabel(line, withTenant) + (shadow ? " (shadow)" : ""),
      shadow,
      requests: line.total.requests,
      pct: shadow ? line.total.shadowRefusedPct : line.total.refusedPct,
      tenantId: line.tenantId,
    };
  });
  const rows: RateRow[] = (lines[0]?.points ?? []).map((point, p) => {
    const row: RateRow = { t: point.t };
    lines.forEach((line, i) => {
      const at = line.points[p];
      row[chartLines[i]!.key] = at ? (chartLines[i]!.shadow ? at.shadowRefusedPct : at.refusedPct) : null;
    });
    return row;
  });
  return { lines: chartLines, rows };
}
