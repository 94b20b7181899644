"use client";
/** The hottest API keys of the range (top 20): requests, refusals, and the rule that refused most. */
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { ChartCard } from "./ChartCard";
import { formatCount, formatPct, RANGE_WORDS } from "./chartFormat";
import { KeyLink, TenantLink } from "./entityLinks";
import type { Range } from "./RangePicker";
import { useHotKeys } from "./useMonitoring";

export function HotKeysTable({ tenantId, range }: { tenantId?: string; range: Range }) {
  const query = useHotKeys({ tenantId, range });
  const keys = query.data?.keys;

  return (
    <ChartCard title="Hot keys" hint={`The keys with the most requests, ${RANGE_WORDS[range]}.`}>
      {query.isError && !keys ? <ErrorState error={query.error} /> : null}
      {query.isPending ? <Loading label="Loading hot keys…" /> : null}
      {keys ? (
        keys.length === 0 ? (
          <Empty>No key made requests in {RANGE_WORDS[range]}.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  {tenantId ? null : <th scope="col">Tenant</th>}
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
                    <td>
                      <KeyLink keyId={key.keyId} keyName={key.keyName} />
                    </td>
                    {tenantId ? null : (
                      <td>
                        <TenantLink tenantId={key.tenantId} tenantName={key.tenantName} />
                      </td>
                    )}
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
        )
      ) : null}
      {query.isError && keys ? <ErrorState error={query.error} /> : null}
    </ChartCard>
  );
}
