"use client";
/**
 * The hottest API keys of the range (top 20): requests, refusals (and the minute of the latest, so
 * a client fixed minutes ago is not taken for one refused now), and the rule that refused most.
 */
import { formatClock } from "@/components/format/dateFormat";
import { ChartCard } from "./ChartCard";
import { formatCount, formatPct } from "./chartFormat";
import { DataTable } from "./DataTable";
import { KeyCells, RefusedCount, RuleLink } from "./entityLinks";
import { LiveQueryBody } from "./LiveQueryBody";
import { rangeWords } from "./timeRange";
import { useHotKeys } from "./useMonitoring";
import type { MonitoringView } from "./useMonitoringView";

export function HotKeysTable({ tenantId, view }: { tenantId?: string; view: MonitoringView }) {
  const query = useHotKeys({ tenantId, view });
  const words = rangeWords(view.range);

  return (
    <ChartCard title="Hot keys" hint={`The keys with the most requests, ${words}.`}>
      <LiveQueryBody
        query={query}
        data={query.data?.keys}
        loadingLabel="Loading hot keys…"
        isEmpty={(keys) => keys.length === 0}
        empty={<>No key made requests in {words}.</>}
      >
        {(keys) => (
          <DataTable
            label="Hot keys"
            columns={[
              { label: "Key" },
              { label: "Tenant", when: !tenantId },
              { label: "Requests", num: true },
              { label: "Refused", num: true },
              { label: "Refused most by" },
            ]}
          >
            {keys.map((key) => (
              <tr key={`${key.tenantId}/${key.keyId}`}>
                <KeyCells row={key} withTenant={!tenantId} />
                <td className="num">{formatCount(key.requests)}</td>
                <td className="num">
                  <RefusedCount refused={key.refused} />
                  {key.requests > 0 && key.refused > 0 ? (
                    <span className="muted"> ({formatPct((100 * key.refused) / key.requests)})</span>
                  ) : null}
                  {key.lastRefusedPeriodMs !== null ? (
                    <span className="muted" data-testid="hot-key-last-refused">
                      {" "}
                      · last {query.data?.resolution === "hour" ? "in the hour of " : ""}
                      {formatClock(key.lastRefusedPeriodMs, undefined, false)}
                    </span>
                  ) : null}
                </td>
                <td>
                  {key.topRule ? (
                    <>
                      <RuleLink tenantId={key.tenantId} rule={key.topRule} />
                      <span className="muted"> ({formatCount(key.topRule.refused)})</span>
                    </>
                  ) : (
                    <span className="muted">–</span>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}
