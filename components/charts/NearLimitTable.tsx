"use client";
/**
 * Clients near their limit: the keys whose remaining quota fell lowest against a rule's capacity
 * in the range, lowest first (0 left means the rule refused them).
 */
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { ChartCard } from "./ChartCard";
import { formatCount, formatTime, RANGE_WORDS } from "./chartFormat";
import { KeyLink, TenantLink } from "./entityLinks";
import type { Range } from "./RangePicker";
import { useNearLimit } from "./useMonitoring";

export function NearLimitTable({ tenantId, range }: { tenantId?: string; range: Range }) {
  const query = useNearLimit({ tenantId, range });
  const clients = query.data?.clients;

  return (
    <ChartCard title="Clients near their limit" hint={`Lowest remaining quota seen per key, ${RANGE_WORDS[range]}.`}>
      {query.isError && !clients ? <ErrorState error={query.error} /> : null}
      {query.isPending ? <Loading label="Loading clients near their limit…" /> : null}
      {clients ? (
        clients.length === 0 ? (
          <Empty>No client came near a limit in {RANGE_WORDS[range]}.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  {tenantId ? null : <th scope="col">Tenant</th>}
                  <th scope="col">Rule</th>
                  <th scope="col">Lowest remaining</th>
                  <th scope="col">Seen</th>
                </tr>
              </thead>
              <tbody>
                {clients.map((client) => {
                  const usedPct = Math.round((1 - client.fraction) * 100);
                  return (
                    <tr key={`${client.tenantId}/${client.keyId}`}>
                      <td>
                        <KeyLink keyId={client.keyId} keyName={client.keyName} />
                      </td>
                      {tenantId ? null : (
                        <td>
                          <TenantLink tenantId={client.tenantId} tenantName={client.tenantName} />
                        </td>
                      )}
                      <td className="name">{client.rule.name ?? `deleted rule (${client.rule.ref})`}</td>
                      <td>
                        <span className="meter" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={usedPct} aria-label={`${usedPct} % of the quota used`}>
                          <span style={{ width: `${usedPct}%` }} />
                        </span>
                        {formatCount(client.remaining)} of {formatCount(client.capacity)} left
                      </td>
                      <td className="muted">{formatTime(client.atMs)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      {query.isError && clients ? <ErrorState error={query.error} /> : null}
    </ChartCard>
  );
}
