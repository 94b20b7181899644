"use client";
/**
 * Clients near their limit: the keys whose remaining quota fell lowest against a rule's capacity
 * in the range, lowest first (0 left means the rule refused them).
 */
import { ChartCard } from "./ChartCard";
import { formatCount, formatWhen, RANGE_WORDS } from "./chartFormat";
import { KeyCells, KeyHeaders } from "./entityLinks";
import { LiveQueryBody } from "./LiveQueryBody";
import type { Range } from "./RangePicker";
import { useNearLimit } from "./useMonitoring";

export function NearLimitTable({ tenantId, range }: { tenantId?: string; range: Range }) {
  const query = useNearLimit({ tenantId, range });

  return (
    <ChartCard title="Clients near their limit" hint={`Lowest remaining quota seen per key, ${RANGE_WORDS[range]}.`}>
      <LiveQueryBody
        query={query}
        data={query.data?.clients}
        loadingLabel="Loading clients near their limit…"
        isEmpty={(clients) => clients.length === 0}
        empty={<>No client came near a limit in {RANGE_WORDS[range]}.</>}
      >
        {(clients) => (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <KeyHeaders withTenant={!tenantId} />
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
                      <KeyCells row={client} withTenant={!tenantId} />
                      <td className="name">{client.rule.name ?? `deleted rule (${client.rule.ref})`}</td>
                      <td>
                        <span className="meter" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={usedPct} aria-label={`${usedPct} % of the quota used`}>
                          <span style={{ width: `${usedPct}%` }} />
                        </span>
                        {formatCount(client.remaining)} of {formatCount(client.capacity)} left
                      </td>
                      <td className="muted">{formatWhen(client.atMs)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}
