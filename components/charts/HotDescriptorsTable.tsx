"use client";
/**
 * The hottest descriptor values of Envoy's rate limit calls over the range (top 20): per descriptor
 * rule, the values it counts by (an address, a user; several as a list; "one counter" for a rule
 * whose every entry has a value), with the calls that met it and the calls that rule refused.
 */
import { ChartCard } from "./ChartCard";
import { formatCount, formatPct } from "@/components/format/numberFormat";
import { DataTable } from "@/components/tables/DataTable";
import { RefusedCount, RuleLink, TenantLink } from "@/components/tables/entityLinks";
import { LiveQueryBody } from "./LiveQueryBody";
import { rangeWords } from "./timeRange";
import { useHotDescriptors } from "./useMonitoring";
import type { MonitoringView } from "./useMonitoringView";

/** "=" is a rule's single counter; a JSON list the values of several entries counted per value. */
function valueText(value: string): string {
  if (value === "=") return "one counter";
  if (value.startsWith("[")) {
    try {
      const values: unknown = JSON.parse(value);
      if (Array.isArray(values)) return values.map(String).join(", ");
    } catch {
      // Shown as recorded.
    }
  }
  return value;
}

export function HotDescriptorsTable({ tenantId, view }: { tenantId?: string; view: MonitoringView }) {
  const query = useHotDescriptors({ tenantId, view });
  const words = rangeWords(view.range);

  return (
    <ChartCard
      title="Hot descriptors"
      hint={`The Envoy descriptor values with the most rate limit calls, ${words}, per descriptor rule.`}
    >
      <LiveQueryBody
        query={query}
        data={query.data?.descriptors}
        loadingLabel="Loading hot descriptors…"
        isEmpty={(rows) => rows.length === 0}
        empty={<>No Envoy rate limit call met a descriptor rule in {words}.</>}
      >
        {(rows) => (
          <DataTable
            label="Hot descriptors"
            columns={[
              { label: "Value" },
              { label: "Rule" },
              { label: "Tenant", when: !tenantId },
              { label: "Calls", num: true },
              { label: "Refused", num: true },
            ]}
          >
            {rows.map((row) => (
              <tr key={`${row.tenantId}/${row.rule.ref}/${row.value}`}>
                <td>
                  <code className="name">{valueText(row.value)}</code>
                </td>
                <td>
                  <RuleLink tenantId={row.tenantId} rule={row.rule} />
                </td>
                {!tenantId ? (
                  <td>
                    <TenantLink tenantId={row.tenantId} tenantName={row.tenantName} />
                  </td>
                ) : null}
                <td className="num">{formatCount(row.requests)}</td>
                <td className="num">
                  <RefusedCount refused={row.refused} />
                  {row.refused > 0 ? (
                    <span className="muted"> ({formatPct((100 * row.refused) / row.requests)})</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}
