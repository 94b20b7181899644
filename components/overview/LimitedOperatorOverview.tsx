"use client";
/**
 * The overview of an operator limited to tenants: the instance-wide panels (every tenant's traffic,
 * the tenants refusing most) are refused to it, so it gets the same live view per tenant of its
 * own, from the tenant-filtered monitoring calls. Only tenants that still exist are shown (the
 * tenant list answers a limited operator its own).
 */
import { HotKeysTable } from "@/components/charts/HotKeysTable";
import type { MonitoringView } from "@/components/charts/useMonitoringView";
import { TenantLink } from "@/components/tables/entityLinks";
import { RefusalRateChart } from "@/components/charts/RefusalRateChart";
import { TrafficChart } from "@/components/charts/TrafficChart";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { useTenants } from "@/components/api/tenantQueries";
import { LimitedNowTable } from "./LimitedNowTable";

export function LimitedOperatorOverview({ view }: { view: MonitoringView }) {
  const tenants = useTenants();
  if (tenants.isPending) return <Loading label="Loading your tenants…" />;
  if (tenants.error) return <ErrorState error={tenants.error} />;
  if (tenants.data.length === 0) return <Empty>None of the tenants your account is limited to exists any more.</Empty>;
  return (
    <>
      <p className="hint">
        Your account is limited to {tenants.data.length === 1 ? "one tenant" : `${tenants.data.length} tenants`}: the
        overview shows {tenants.data.length === 1 ? "its" : "their"} traffic.
      </p>
      {tenants.data.map((tenant) => (
        <section key={tenant.id} className="stack" aria-label={`Tenant ${tenant.name}`}>
          <h2>
            <TenantLink tenantId={tenant.id} tenantName={tenant.name} />
          </h2>
          <LimitedNowTable tenantId={tenant.id} />
          <TrafficChart tenantId={tenant.id} view={view} title={`Requests per second, ${tenant.name}`} />
          <div className="grid-2">
            <RefusalRateChart tenantId={tenant.id} view={view} />
            <HotKeysTable tenantId={tenant.id} view={view} />
          </div>
        </section>
      ))}
    </>
  );
}
