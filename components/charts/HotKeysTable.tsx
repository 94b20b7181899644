"use client";
/** The hottest API keys of the range (top 20): requests, refusals, and the rule that refused most. */
import { ChartCard } from "./ChartCard";
import { formatCount, formatPct, RANGE_WORDS } from "./chartFormat";
import { KeyCells, KeyHeaders } from "./entityLinks";
import { LiveQueryBody } from "./LiveQueryBody";
import type { Range } from "./RangePicker";
import { useHotKeys } from "./useMonitoring";

export function HotKeysTable({ tenantId, range }: { tenantId?: string; range: Range }) {
  const query = useHotKeys({ tenantId, range });

  return (
    <ChartCard title="Hot keys" hint={`The keys with the most requests, ${RANGE_WORDS[range]}.`}>
      <LiveQueryBody
        query={query}
        data={query.data?.keys}
        loadingLabel="Loading hot keys…"
        isEmpty={(keys) => keys.length === 0}
        empty={<>No key made requests in {RANGE_WORDS[range]}.</>}
      >
        {(keys) => (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <KeyHeaders withTenant={!tenantId} />
                  <th scope="col" className="num">
                    Requests
                  </th>
                  <th scope="col" className="num">
                    Refused
                  </th>
                  <th scope="col">Refused most by</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={`${key.tenantId}/${key.keyId}`}>
                    <KeyCells row={key} withTenant={!tenantId} />
                    <td className="num">{formatCount(key.requests)}</td>
                    <td className="num">
                      {formatCount(key.refused)}
                      {key.requests > 0 && key.refused > 0 ? <span className="muted"> ({formatPct((100 * key.refused) / key.requests)})</span> : null}
                    </td>
                    <td className="name">
                      {key.topRule ? (
                        <>
                          {key.topRule.name ?? `deleted rule (${key.topRule.ref})`}
                          <span className="muted"> ({formatCount(key.topRule.refused)})</span>
                        </>
                      ) : (
                        <span className="muted">–</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}
