"use client";
/**
 * "Limited right now": who an enforce rule refused in the last minute (keys, tenants, client IPs,
 * identifiers), with the rule, the refusals, the quota the live limiter has for them now and when
 * the next unit comes back. Still-refused first. A key links to its decisions filtered to refusals.
 */
import Link from "next/link";
import { ChartCard } from "@/components/charts/ChartCard";
import { DataTable } from "@/components/tables/DataTable";
import { RefusedCount, RuleLink, TenantLink } from "@/components/tables/entityLinks";
import { LiveQueryBody } from "@/components/charts/LiveQueryBody";
import { QuotaBar } from "@/components/charts/QuotaBar";
import { useLimitedNow } from "@/components/charts/useMonitoring";
import { formatClock, formatWait } from "@/components/format/dateFormat";
import { ID_PATTERN as ID } from "@/lib/common/apiKeyFormat";
import type { LimitedClient } from "@/lib/monitoring/query/monitoringAnswers";

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
    case "header":
    case "query":
    case "descriptor":
      return (
        <>
          <span className="muted">{client.scope} value </span>
          <code className="name">{JSON.stringify(client.subject).slice(1, -1)}</code>
        </>
      );
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
    <ChartCard
      title="Limited right now"
      hint={<>Who a rule refused in the last minute, with their quota now. Refreshed every 2 s.</>}
    >
      <LiveQueryBody
        query={query}
        data={data?.clients}
        loadingLabel="Loading who is limited…"
        isEmpty={(clients) => clients.length === 0}
        empty={<>Nobody was refused in the last minute.</>}
      >
        {(clients) => (
          <DataTable
            label="Limited right now"
            columns={[
              { label: "Who" },
              { label: "Tenant", when: !tenantId },
              { label: "Rule" },
              { label: "Refused", num: true },
              { label: "Last refused" },
              { label: "Quota now" },
              { label: "Next quota" },
            ]}
          >
            {clients.map((client) => (
              <tr
                key={`${client.tenantId}/${client.rule.ref}/${client.scope}/${client.subject}`}
                data-testid="limited-row"
              >
                <td>
                  <Who client={client} />
                </td>
                {tenantId ? null : (
                  <td>
                    <TenantLink tenantId={client.tenantId} tenantName={client.tenantName} />
                  </td>
                )}
                <td>
                  <RuleLink tenantId={client.tenantId} rule={client.rule} />
                </td>
                <td className="num">
                  <RefusedCount refused={client.refused} />
                  <span className="muted"> since {formatClock(client.refusedSinceMs, undefined, false)}</span>
                </td>
                <td>{formatClock(client.lastRefusedMs)}</td>
                <td>
                  {client.quota ? (
                    <QuotaBar
                      remaining={client.quota.remaining}
                      capacity={client.quota.capacity}
                      label={`${client.rule.name ?? "rule"} quota left`}
                    />
                  ) : (
                    <span className="muted">n/a</span>
                  )}
                </td>
                <td>
                  <NextQuota client={client} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}
