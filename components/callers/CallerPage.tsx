"use client";
/**
 * `/tenants/[tenantId]/callers/[caller]`: a caller that is not an API key (a JWT subject, an
 * anonymous address on a tenant host), reached from the hot callers (issue 31, point 3): its
 * traffic and refusals by rule over time with change markers and the rate now
 * (CallerHistoryChart), and its quota now for the rules that refused it in the last minute (from
 * "Limited right now", which peeks the live limiter), and for a JWT subject its grants (issue 33:
 * CallerGrantsCard; a subject shown hashed cannot be named, so it has none here). An API key's
 * member leads to its key page.
 */
import Link from "next/link";
import { useIsAdmin } from "@/components/api/useSession";
import { CallerGrantsCard } from "@/components/grants/CallerGrantsCard";
import { CallerHistoryChart } from "@/components/charts/CallerHistoryChart";
import { ChartCard } from "@/components/charts/ChartCard";
import { DataTable } from "@/components/tables/DataTable";
import { LiveQueryBody } from "@/components/charts/LiveQueryBody";
import { QuotaBar } from "@/components/charts/QuotaBar";
import { RuleLink } from "@/components/tables/entityLinks";
import { useLimitedNow } from "@/components/charts/useMonitoring";
import { formatWait } from "@/components/format/dateFormat";
import { ErrorState } from "@/components/shell/PageState";
import { useTenant } from "@/components/api/tenantQueries";
import { callerFromSegment, callerTitle } from "./callerPath";

function CallerQuotaCard({ tenantId, member }: { tenantId: string; member: string }) {
  const query = useLimitedNow({ tenantId, limit: 100 });
  const subject = member.slice(1);
  const rows = query.data?.clients.filter(
    (c) =>
      c.subject === member || ((member.startsWith("@") ? c.scope === "ip" : c.scope !== "ip") && c.subject === subject),
  );
  return (
    <ChartCard
      title="Quota now"
      hint="The rules that refused this caller in the last minute, with its quota as the limiter has it now."
    >
      <LiveQueryBody
        query={query}
        data={rows}
        loadingLabel="Loading quota…"
        isEmpty={(r) => r.length === 0}
        empty={<>No rule refused this caller in the last minute.</>}
      >
        {(r) => (
          <DataTable label="Quota now" columns={[{ label: "Rule" }, { label: "Quota" }, { label: "Next quota" }]}>
            {r.map((c) => (
              <tr key={`${c.rule.ref}/${c.scope}`}>
                <td>
                  <RuleLink tenantId={tenantId} rule={c.rule} />
                </td>
                <td>
                  {c.quota ? (
                    <QuotaBar
                      remaining={c.quota.remaining}
                      capacity={c.quota.capacity}
                      label={`${c.rule.name ?? "rule"} quota left`}
                    />
                  ) : (
                    <span className="muted">rule removed</span>
                  )}
                </td>
                <td>
                  {!c.quota
                    ? "–"
                    : c.quota.retryAfterMs > 0
                      ? `in ${formatWait(c.quota.retryAfterMs)}`
                      : "available now"}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LiveQueryBody>
    </ChartCard>
  );
}

export default function CallerPage({ tenantId, caller }: { tenantId: string; caller: string }) {
  const member = callerFromSegment(caller);
  const tenant = useTenant(tenantId);
  const isAdmin = useIsAdmin();
  const back = (
    <p className="hint">
      <Link href={`/tenants/${encodeURIComponent(tenantId)}`} className="name">
        ← {tenant.data?.name ?? "Tenant"}
      </Link>
    </p>
  );
  if (member === null)
    return (
      <>
        {back}
        <h1>Unknown caller</h1>
        <p className="notice notice-warn">This address names no caller: a key id, a JWT subject or an IP address.</p>
      </>
    );
  const isKey = !member.startsWith("~") && !member.startsWith("@");
  return (
    <>
      {back}
      <div className="page-header">
        <h1 className="name">{callerTitle(member)}</h1>
      </div>
      {tenant.error ? <ErrorState error={tenant.error} /> : null}
      <p className="hint">
        A caller of tenant <span className="name">{tenant.data?.name ?? tenantId}</span>
        {isKey ? (
          <>
            {" "}
            · <Link href={`/keys/${encodeURIComponent(member)}`}>open the key page</Link>
          </>
        ) : null}
        . Its rules are the tenant&apos;s: change them on the tenant page.
      </p>
      <div className="stack">
        <CallerHistoryChart tenantId={tenantId} caller={member} />
        <CallerQuotaCard tenantId={tenantId} member={member} />
        {member.startsWith("~") && !member.startsWith("~#") ? (
          <CallerGrantsCard tenantId={tenantId} subject={member.slice(1)} canEdit={isAdmin} />
        ) : null}
      </div>
    </>
  );
}
