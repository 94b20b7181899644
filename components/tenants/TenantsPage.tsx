"use client";
/**
 * `/tenants`: every tenant, oldest first, with its live keys and its requests and 429s of the last
 * 24 h (totals and an hourly sparkline each), a search by name or id, and (for admins) the form
 * that creates one. Each name links to the tenant's page.
 */
import Link from "next/link";
import { useState } from "react";
import { useIsAdmin, useTenantLimit } from "@/components/api/useSession";
import { formatCount } from "@/components/format/numberFormat";
import { DataTable } from "@/components/tables/DataTable";
import { RefusedCount } from "@/components/tables/entityLinks";
import { Sparkline } from "@/components/charts/Sparkline";
import { useChartPalette } from "@/components/charts/useChartPalette";
import { TENANT_ACTIVITY_LIMIT, useTenantActivity } from "@/components/charts/useMonitoring";
import { formatDateTime } from "@/components/format/dateFormat";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { CreateTenantForm } from "./CreateTenantForm";
import { useTenants } from "@/components/api/tenantQueries";

interface Activity {
  requests: number[];
  refused: number[];
  totalRequests: number;
  totalRefused: number;
}

/**
 * Each tenant's activity, and whether a tenant missing from it had none: the route ranks tenants by
 * refusals and returns at most TENANT_ACTIVITY_LIMIT, so when it returns that many, a missing
 * tenant may still have had traffic (shown as unknown, never as a false 0).
 */
interface ActivityByTenant {
  byTenant: Map<string, Activity>;
  missingMeansNone: boolean;
  /** Why no tenant has activity here (an operator limited to tenants: the ranking is instance-wide). */
  elsewhere?: string;
}

function useActivityByTenant(limited: boolean): ActivityByTenant | null {
  const activity = useTenantActivity(!limited);
  if (limited) return { byTenant: new Map(), missingMeansNone: false, elsewhere: "Shown on each tenant's page" };
  if (!activity.data) return null;
  const byTenant = new Map(
    activity.data.byTenant.map((line) => [
      line.tenantId,
      {
        requests: line.points.map((p) => p.allowed + p.refused),
        refused: line.points.map((p) => p.refused),
        totalRequests: line.total.allowed + line.total.refused,
        totalRefused: line.total.refused,
      },
    ]),
  );
  return { byTenant, missingMeansNone: activity.data.byTenant.length < TENANT_ACTIVITY_LIMIT };
}

/** The cell of a tenant without activity data: loading, none, or not among the ranked tenants. */
function NoActivity({ activity }: { activity: ActivityByTenant | null }) {
  if (!activity) return <span className="muted">…</span>;
  if (activity.elsewhere)
    return (
      <span className="muted" title={activity.elsewhere}>
        —
      </span>
    );
  if (activity.missingMeansNone) return <span className="muted">0</span>;
  return (
    <span className="muted" title={`Shown for the ${TENANT_ACTIVITY_LIMIT} tenants refusing most`}>
      —
    </span>
  );
}

export default function TenantsPage() {
  const isAdmin = useIsAdmin();
  const limit = useTenantLimit();
  const tenants = useTenants();
  const activity = useActivityByTenant(limit !== null);
  const palette = useChartPalette();
  const [search, setSearch] = useState("");
  const needle = search.trim().toLowerCase();
  const shown = (tenants.data ?? []).filter(
    (t) => needle === "" || t.name.toLowerCase().includes(needle) || t.id.toLowerCase().includes(needle),
  );

  return (
    <>
      <div className="page-header">
        <h1>Tenants</h1>
      </div>
      <div className="stack">
        {isAdmin && !limit ? (
          <section className="card" aria-labelledby="create-tenant-heading">
            <h2 id="create-tenant-heading">New tenant</h2>
            <CreateTenantForm />
          </section>
        ) : null}
        <section className="card" aria-labelledby="tenant-list-heading">
          <div className="card-header">
            <h2 id="tenant-list-heading">{limit ? "Your tenants" : "All tenants"}</h2>
            <input
              type="search"
              className="table-search"
              aria-label="Search tenants by name or id"
              placeholder="Search by name or id"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <p className="hint">Requests and refusals (429) of the last 24 hours, per hour.</p>
          {tenants.isPending ? <Loading label="Loading tenants…" /> : null}
          {tenants.error ? <ErrorState error={tenants.error} /> : null}
          {tenants.data && tenants.data.length === 0 ? (
            <Empty>No tenants yet.{isAdmin && !limit ? " Create the first one above." : ""}</Empty>
          ) : null}
          {tenants.data && tenants.data.length > 0 && shown.length === 0 ? (
            <Empty>No tenant matches “{search}”.</Empty>
          ) : null}
          {shown.length > 0 ? (
            <DataTable
              label={limit ? "Your tenants" : "All tenants"}
              columns={[
                { label: "Name" },
                { label: "Keys", num: true },
                { label: "Requests, 24 h", num: true },
                { label: "429s, 24 h", num: true },
                { label: "Created" },
                { label: "Id" },
              ]}
            >
              {shown.map((tenant) => {
                const a = activity?.byTenant.get(tenant.id);
                return (
                  <tr key={tenant.id} data-testid="tenant-row">
                    <td>
                      <Link href={`/tenants/${tenant.id}`} className="name">
                        {tenant.name}
                      </Link>
                    </td>
                    <td className="num">{formatCount(tenant.keyCount)}</td>
                    <td className="num">
                      {a ? (
                        <span className="spark-cell">
                          <Sparkline
                            values={a.requests}
                            colour={palette.allowed}
                            label={`Requests of ${tenant.name} per hour, last 24 hours: ${formatCount(a.totalRequests)} in all`}
                          />
                          {formatCount(a.totalRequests)}
                        </span>
                      ) : (
                        <NoActivity activity={activity} />
                      )}
                    </td>
                    <td className="num">
                      {a ? (
                        <span className="spark-cell">
                          <Sparkline
                            values={a.refused}
                            colour={palette.refused}
                            label={`Refused requests of ${tenant.name} per hour, last 24 hours: ${formatCount(a.totalRefused)} in all`}
                          />
                          <RefusedCount refused={a.totalRefused} />
                        </span>
                      ) : (
                        <NoActivity activity={activity} />
                      )}
                    </td>
                    <td>{formatDateTime(tenant.createdAt)}</td>
                    <td>
                      <code>{tenant.id}</code>
                    </td>
                  </tr>
                );
              })}
            </DataTable>
          ) : null}
        </section>
      </div>
    </>
  );
}
