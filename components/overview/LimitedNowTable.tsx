"use client";
/**
 * "Limited right now": who an enforce rule refused in the last minute (keys, tenants, client IPs,
 * identifiers), with the rule, the refusals, the quota the live limiter has for them now and when
 * the next unit comes back. Still-refused first. A key links to its decisions filtered to refusals.
 */
import Link from "next/link";
import { ChartCard } from "@/components/charts/ChartCard";
import { TenantLink } from "@/components/charts/entityLinks";
import { LiveQueryBody } from "@/components/charts/LiveQueryBody";
import { QuotaBar } from "@/components/charts/QuotaBar";
import { useLimitedNow } from "@/components/charts/useMonitoring";
import { formatClock, formatWait } from "@/components/tenants/formatTime";
import type { LimitedClient } from "@/lib/metrics/limitedNowQuery";

const ID = /^[0-9A-Za-z]{8}$/;

/** The refusals of a key on its page, filtered; other subjects have no page of their own. */
export function refusalsHref(client: LimitedClient): string | null {
  if (client.scope !== "key" || !ID.test(client.subject)) return null;
  return `/keys/${client.subject}?decisions=refused#recent-decisions`;
}

function Who({ client }: { client: LimitedClient }) {
  const href = refusalsHref(client);
  switch (client.scope) {
    case "key":
      return (
        <>
          <span className="muted">key </span>
          {href ? (
            <Link href={href} className="name" aria-label={`${client.keyName ?? client.subject}: refused requests`}>
              {client.keyName ?? client.subject}
            </Link>
          ) : (
            <span className="name">{client.keyName ?? client.subject}</span>
          )}
          {client.keyName === null ? <span className="muted"> (revoked)</span> : null}
        </>
      );
    case "ip":
      return (
        <>
          <span className="muted">IP </span>
          <code>{client.subject}</code>
        </>
      );
    case "identifier":
      return (
        <>
          <span className="muted">identifier </span>
          <code className="name">{JSON.stringify(client.subject).slice(1, -1)}</code>
        </>
      );
    case "tenant":
      return <span className="muted">the whole tenant</span>;
  }
}

function NextQuota({ client }: { client: LimitedClient }) {
  const q = client.quota;
  if (!q) return <span className="muted">rule removed</span>;
  if (q.retryAfterMs > 0) return <>in {formatWait(q.retryAfterMs)}</>;
  return <>available now</>;
}

export function LimitedNowTable({ tenantId }: { tenantId?: string }) {
  const query = useLimitedNow({ tenantId });
  const data = query.data;
  return (
    <ChartCard title="Limited right now" hint={<>Who a rule refused in the last minute, with their quota now. Refreshed every 2 s.</>}>
      <LiveQueryBody
        query={query}
        data={data?.clients}
        loadingLabel="Loading who is limited…"
        isEmpty={(clients) => clients.length === 0}
        empty={<>Nobody was refused in the last minute.</>}
      >
        {(clients) => (
          <div className="table-wrap">
            <table aria-label="Limited right now">
              <thead>
                <tr>
                  <th scope="col">Who</th>
                  {tenantId ? null : <th scope="col">Tenant</th>}
                  <th scope="col">Rule</th>
                  <th scope="col" className="num">
                    Refused since {data ? formatClock(data.sinceMs).slice(0, 5) : ""}
                  </th>
                  <th scope="col">Last refused</th>
                  <th scope="col">Quota now</th>
                  <th scope="col">Next quota</th>
                </tr>
              </thead>
              <tbody>
                {clients.map((client) => (
                  <tr key={`${client.tenantId}/${client.rule.ref}/${client.scope}/${client.subject}`} data-testid="limited-row">
                    <td>
                      <Who client={client} />
                    </td>
                    {tenantId ? null : (
                      <td>
                        <TenantLink tenantId={client.tenantId} tenantName={client.tenantName} />
                      </td>
                    )}
                    <td>
                      <code className="name">{client.rule.name ?? `deleted rule (${client.rule.ref})`}</code>
                    </td>
                    <td className="num">
                      <span className="refused-badge">{client.refused.toLocaleString("en")}</span>
                    </td>
                    <td>{formatClock(client.lastRefusedMs)}</td>
                    <td>{client.quota ? <QuotaBar remaining={client.quota.remaining} capacity={client.quota.capacity} label={`${client.rule.name ?? "rule"} quota left`} /> : <span className="muted">n/a</span>}</td>
                    <td>
                      <NextQuota client={client} />
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
