"use client";
/**
 * `/tenants/[tenantId]/usage`: the tenant's metered usage (GET /api/admin/tenants/{id}/usage) per
 * period: a quota rule's windows (a fixed_window rule of a day or more; the units its counter was
 * charged) against its limit, or all requests per UTC calendar month; this period against the
 * quota, the last 12 periods as a bar chart, and a CSV download of the rows behind it.
 */
import Link from "next/link";
import { useMemo, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { apiGet, withQuery, type ApiError } from "@/components/api/apiClient";
import { ChartCard } from "@/components/charts/ChartCard";
import { QuotaBar } from "@/components/charts/QuotaBar";
import { useChartPalette } from "@/components/charts/useChartPalette";
import { useRules } from "@/components/rules/ruleQueries";
import { ErrorState, Loading } from "@/components/shell/PageState";
import { tenantPath } from "@/components/api/tenantQueries";
import type { UsageAnswer } from "@/lib/monitoring/usage/usageAnswers";
import { granularityFor, sumIntoPeriods, usagePeriods } from "./usagePeriods";

const DAY_MS = 86_400_000;
const ALL = "";

const dateLabel = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export default function UsagePage({ tenantId }: { tenantId: string }) {
  const palette = useChartPalette();
  const rules = useRules({ kind: "tenant", tenantId });
  const quotaRules = useMemo(
    () =>
      (rules.data ?? []).filter(
        (r) => r.algorithm === "fixed_window" && typeof r.windowMs === "number" && r.windowMs >= DAY_MS,
      ),
    [rules.data],
  );
  const [picked, setPicked] = useState<string | null>(null);
  const ruleName = picked ?? quotaRules[0]?.name ?? ALL;
  const rule = quotaRules.find((r) => r.name === ruleName);
  // The periods move on with the clock only when the page is reloaded: a stable query key.
  const [nowMs] = useState(() => Date.now());
  const periods = useMemo(() => usagePeriods(nowMs, rule ? (rule.windowMs as number) : null), [nowMs, rule]);
  const params = {
    from: new Date(periods[0]!.startMs).toISOString(),
    to: new Date(nowMs).toISOString(),
    granularity: granularityFor(periods),
    groupBy: rule ? "rule" : undefined,
  };
  const path = `${tenantPath(tenantId)}/usage`;
  const usage = useQuery<UsageAnswer, ApiError>({
    queryKey: ["tenant", tenantId, "usage", params],
    queryFn: () => apiGet<UsageAnswer>(withQuery(path, params)),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });

  const rows = (usage.data?.rows ?? []).filter((r) => !rule || r.rule === rule.name);
  const sums = sumIntoPeriods(periods, rows);
  const current = sums[sums.length - 1];
  const used = (p: { units: number; admitted: number }) => (rule ? p.units : p.admitted);
  const chart = sums.map((p) => ({ period: dateLabel(p.startMs), used: used(p), refused: p.refused }));

  return (
    <>
      <p className="hint">
        <Link href={`/tenants/${encodeURIComponent(tenantId)}`}>← Tenant</Link>
      </p>
      <div className="page-header">
        <div>
          <h1>Usage</h1>
          <p className="hint">
            Metered from every decision, rolled up into the database at most a minute after it was made; kept 400 days.
          </p>
        </div>
        <a className="button" href={withQuery(path, { ...params, groupBy: "key", format: "csv" })} download>
          Download CSV (by key)
        </a>
      </div>
      <label>
        Quota{" "}
        <select value={ruleName} onChange={(e) => setPicked(e.target.value)} aria-label="Quota">
          {quotaRules.map((r) => (
            <option key={r.name} value={r.name}>
              {r.name} ({r.limit.toLocaleString("en")} per {Math.round((r.windowMs as number) / DAY_MS)} d)
            </option>
          ))}
          <option value={ALL}>All requests, per calendar month (UTC)</option>
        </select>
      </label>
      {usage.error ? <ErrorState error={usage.error} /> : null}
      {usage.isPending ? <Loading label="Loading usage…" /> : null}
      {current ? (
        <div className="stack">
          <ChartCard
            title="This period"
            hint={`${dateLabel(current.startMs)} to ${dateLabel(current.endMs)} (end exclusive, UTC)`}
          >
            <p>
              {rule
                ? `${current.units.toLocaleString("en")} units used`
                : `${current.admitted.toLocaleString("en")} requests admitted`}
              , {current.refused.toLocaleString("en")} refused
            </p>
            {rule ? (
              <QuotaBar remaining={rule.limit - current.units} capacity={rule.limit} label={`Quota of ${rule.name}`} />
            ) : null}
          </ChartCard>
          <ChartCard title="Last periods" hint="Each bar is one period; the line is the quota.">
            <BarChart responsive style={{ width: "100%", height: 260 }} data={chart} accessibilityLayer>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="period" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Bar
                dataKey="used"
                name={rule ? "units used" : "admitted"}
                fill={palette.allowed}
                isAnimationActive={false}
              />
              <Bar dataKey="refused" name="refused" fill={palette.refused} isAnimationActive={false} />
              {rule ? (
                <ReferenceLine y={rule.limit} stroke={palette.partial} strokeDasharray="4 2" label="quota" />
              ) : null}
            </BarChart>
            <table className="table">
              <thead>
                <tr>
                  <th>Period start</th>
                  <th>{rule ? "Units used" : "Admitted"}</th>
                  <th>Refused</th>
                </tr>
              </thead>
              <tbody>
                {[...sums].reverse().map((p) => (
                  <tr key={p.startMs}>
                    <td>{dateLabel(p.startMs)}</td>
                    <td>{used(p).toLocaleString("en")}</td>
                    <td>{p.refused.toLocaleString("en")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ChartCard>
        </div>
      ) : null}
    </>
  );
}
