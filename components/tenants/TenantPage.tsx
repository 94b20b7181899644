"use client";
/**
 * `/tenants/[tenantId]`: the tenant's name, its keys, its rules (with the editor), its gateway upstream, its access lists, each key's
 * remaining quota live, its own traffic charts, and links to its audit log and its rule simulator.
 */
import Link from "next/link";
import { useState } from "react";
import { useIsAdmin } from "@/components/api/useSession";
import { HotKeysTable } from "@/components/charts/HotKeysTable";
import { RANGES, RangePicker, type Range } from "@/components/charts/RangePicker";
import { RefusalRateChart } from "@/components/charts/RefusalRateChart";
import { TrafficChart } from "@/components/charts/TrafficChart";
import { KeysCard } from "@/components/keys/KeysCard";
import { TenantQuotaCard } from "@/components/keys/TenantQuotaCard";
import { RuleEditor } from "@/components/rules/RuleEditor";
import { ErrorState, Loading } from "@/components/shell/PageState";
import { formatDateTime } from "./formatTime";
import { useTenant } from "./tenantQueries";
import { AccessListsCard } from "./AccessListsCard";
import { AlertsCard } from "./AlertsCard";
import { UpstreamCard } from "./UpstreamCard";

export default function TenantPage({ tenantId }: { tenantId: string }) {
  const isAdmin = useIsAdmin();
  const tenant = useTenant(tenantId);
  const [range, setRange] = useState<Range>("5m");

  if (tenant.isPending) return <Loading label="Loading tenant…" />;
  if (!tenant.data) {
    return (
      <>
        <p>
          <Link href="/tenants">← Tenants</Link>
        </p>
        <ErrorState error={tenant.error} />
      </>
    );
  }

  return (
    <>
      <p className="hint">
        <Link href="/tenants">← Tenants</Link>
      </p>
      <div className="page-header">
        <div>
          <h1 className="name">{tenant.data.name}</h1>
          <p className="hint">
            Tenant <code>{tenant.data.id}</code>, created {formatDateTime(tenant.data.createdAt)} ·{" "}
            <Link href={`/audit?tenantId=${encodeURIComponent(tenant.data.id)}`}>Audit log of this tenant</Link> ·{" "}
            <Link href={`/tenants/${encodeURIComponent(tenant.data.id)}/simulate`}>Simulate a rule change</Link>
          </p>
        </div>
      </div>
      {tenant.error ? <ErrorState error={tenant.error} /> : null}
      <div className="stack">
        <KeysCard tenantId={tenantId} canEdit={isAdmin} />
        <RuleEditor
          owner={{ kind: "tenant", tenantId }}
          heading="Rules"
          description="Every request under /api/v1 with a key of this tenant is checked against all matching rules at once; a key's overrides replace rules of the same name."
          emptyText="No rules: this tenant's keys are not limited."
        />
        <UpstreamCard tenant={tenant.data} canEdit={isAdmin} />
        <AccessListsCard tenantId={tenantId} canEdit={isAdmin} />
        <AlertsCard tenantId={tenantId} canEdit={isAdmin} />
        <TenantQuotaCard tenantId={tenantId} />
        <div className="page-header">
          <h2>Traffic</h2>
          <RangePicker value={range} onChange={setRange} options={RANGES} />
        </div>
        <TrafficChart tenantId={tenantId} range={range} title="Requests per second, this tenant" />
        <div className="grid-2">
          <RefusalRateChart tenantId={tenantId} range={range} />
          <HotKeysTable tenantId={tenantId} range={range} />
        </div>
      </div>
    </>
  );
}
