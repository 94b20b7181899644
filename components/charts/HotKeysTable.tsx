"use client";
/**
 * The hottest callers of the range (top 20): API keys, JWT subjects and anonymous addresses on
 * tenant hosts, each labelled by its kind, with requests, refusals (and the minute of the latest, so
 * a client fixed minutes ago is not taken for one refused now), and the rule that refused most.
 */
import { formatClock } from "@/components/format/dateFormat";
import { ChartCard } from "./ChartCard";
import { formatCount, formatPct } from "@/components/format/numberFormat";
import { DataTable } from "@/components/tables/DataTable";
import { CallerLink, KeyLink, RefusedCount, RuleLink, TenantLink } from "@/components/tables/entityLinks";
import { LiveQueryBody } from "./LiveQueryBody";
import { rangeWords } from "./timeRange";
import { useHotKeys, type HotKeys } from "./useMonitoring";
import type { MonitoringView } from "./useMonitoringView";

type HotCaller = HotKeys["keys"][number];

const KIND_LABEL: Record<HotCaller["kind"], string> = { key: "key", jwt: "JWT subject", anonymous: "anonymous IP" };

/**
 * The caller, labelled by its kind: a key links to its page; a JWT subject (or its hash, when it
 * was long or not plain) and an address link to the caller page (its history by rule).
 */
function CallerCells({ row, withTenant }: { row: HotCaller; withTenant: boolean }) {
  const hashed = row.kind === "jwt" && row.caller.startsWith("#");
  return (
    <>
      <td>
        {row.kind === "key" ? (
          <KeyLink keyId={row.keyId} keyName={row.keyName} />
        ) : (
          <CallerLink tenantId={row.tenantId} member={row.keyId}>
            <code className="name">{hashed ? `hash ${row.caller.slice(1)}` : row.caller}</code>
          </CallerLink>
        )}
        <span className="muted"> · {KIND_LABEL[row.kind]}</span>
      </td>
      {withTenant ? (
        <td>
          <TenantLink tenantId={row.tenantId} tenantName={row.tenantName} />
        </td>
      ) : null}
    </>
  );
}

export function HotKeysTable({ tenantId, view }: { tenantId?: string; view: MonitoringView }) {
  const query = useHotKeys({ tenantId, view });
  const words = rangeWords(view.range);

  return (
    <ChartCard
      title="Hot callers"
      hint={`The callers with the most requests, ${words}: API keys, JWT subjects and anonymous IPs on tenant hosts.`}
    >
      <LiveQueryBody
        query={query}
        data={query.data?.keys}
        loadingLabel="Loading hot callers…"
        isEmpty={(keys) => keys.length === 0}
        empty={<>No caller made requests in {words}.</>}
      >
        {(keys) => (
          <DataTable
            label="Hot callers"
            columns={[
              { label: "Caller" },
              { label: "Tenant", when: !tenantId },
              { label: "Requests", num: true },
              { label: "Refused", num: true },
              { label: "Refused most by" },
            ]}
          >
            {keys.map((key) => (
              <tr key={`${key.tenantId}/${key.keyId}`}>
                <CallerCells row={key} withTenant={!tenantId} />
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
