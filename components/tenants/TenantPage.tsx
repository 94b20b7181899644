"use client";
/**
 * `/tenants/[tenantId]`: the tenant's name, its own traffic charts first (with Envoy's hot descriptors when it has descriptor rules), each key's remaining quota live,
 * then its keys, its rules (with the editor), its tiers, its gateway upstream, its hosts and callers, its access lists and alerts, with links to each part, to its
 * audit log, its rule simulator and its usage.
 */
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useIsAdmin } from "@/components/api/useSession";
import { HotDescriptorsTable } from "@/components/charts/HotDescriptorsTable";
import { HotKeysTable } from "@/components/charts/HotKeysTable";
import { MonitoringControls } from "@/components/charts/MonitoringControls";
import { RefusalRateChart } from "@/components/charts/RefusalRateChart";
import { TrafficChart } from "@/components/charts/TrafficChart";
import { useMonitoringView } from "@/components/charts/useMonitoringView";
import { KeysCard } from "@/components/keys/KeysCard";
import { TenantQuotaCard } from "@/components/keys/TenantQuotaCard";
import { IdentifierOverridesCard } from "@/components/rules/IdentifierOverridesCard";
import { RuleEditor } from "@/components/rules/RuleEditor";
import { useRules } from "@/components/rules/ruleQueries";
import { ErrorState, Loading } from "@/components/shell/PageState";
import { formatDateTime } from "@/components/format/dateFormat";
import { useTenant } from "@/components/api/tenantQueries";
import { AccessListsCard } from "./AccessListsCard";
import { AlertsCard } from "./AlertsCard";
import { UpstreamCard } from "./UpstreamCard";
import { IdentityCard } from "./IdentityCard";
import { TiersCard } from "./TiersCard";
import { CallerGrantsCard } from "@/components/grants/CallerGrantsCard";

/**
 * What an operator looks at first: the traffic, then each key's quota; the configuration after it,
 * each part one jump away (the links point at the cards' headings).
 */
const SECTIONS: readonly [string, string][] = [
  ["#traffic", "Traffic"],
  ["#quota", "Quota"],
  ["#keys-heading", "Keys"],
  ["#tenant-rules-heading", "Rules"],
  ["#tiers-heading", "Tiers"],
  ["#overrides-heading", "Identifier overrides"],
  ["#upstream-heading", "Upstream"],
  ["#identity-heading", "Hosts and callers"],
  ["#access-heading", "Access lists"],
  ["#alerts-heading", "Alerts"],
];

export default function TenantPage({ tenantId }: { tenantId: string }) {
  const isAdmin = useIsAdmin();
  const tenant = useTenant(tenantId);
  const monitoring = useMonitoringView();
  const { view } = monitoring;
  // `?rule=<name>` (the rule links of the monitoring tables): the traffic of that rule alone.
  const rule = useSearchParams().get("rule") ?? undefined;
  // Envoy's hot descriptors only for a tenant that answers Envoy (a rule of scope descriptor).
  const tenantRules = useRules({ kind: "tenant", tenantId }).data;
  const answersEnvoy = tenantRules?.some((r) => r.scope === "descriptor") ?? false;
  // The identifier overrides card is there only for a tenant with identifier rules.
  const sections = SECTIONS.filter(
    ([href]) => href !== "#overrides-heading" || tenantRules?.some((r) => r.scope === "identifier"),
  );

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
            <Link href={`/tenants/${encodeURIComponent(tenant.data.id)}/simulate`}>Simulate a rule change</Link> ·{" "}
            <Link href={`/tenants/${encodeURIComponent(tenant.data.id)}/usage`}>Usage</Link>
          </p>
        </div>
      </div>
      {tenant.error ? <ErrorState error={tenant.error} /> : null}
      <nav className="page-nav" aria-label="On this page">
        <ul>
          {sections.map(([href, label]) => (
            <li key={href}>
              <a href={href}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="stack">
        <div className="page-header" id="traffic">
          <h2>Traffic</h2>
          <MonitoringControls {...monitoring} />
        </div>
        {rule ? (
          <p className="hint">
            Traffic of the rule <code className="name">{rule}</code> alone ·{" "}
            <Link href={`/tenants/${encodeURIComponent(tenantId)}#traffic`}>all rules</Link>
          </p>
        ) : null}
        <TrafficChart
          key={rule ?? ""}
          tenantId={tenantId}
          rule={rule}
          view={view}
          title={rule ? "Requests per second, this rule" : "Requests per second, this tenant"}
        />
        <div className="grid-2">
          <RefusalRateChart tenantId={tenantId} view={view} />
          <HotKeysTable tenantId={tenantId} view={view} />
        </div>
        {answersEnvoy ? <HotDescriptorsTable tenantId={tenantId} view={view} /> : null}
        <TenantQuotaCard tenantId={tenantId} />
        <KeysCard tenantId={tenantId} canEdit={isAdmin} />
        <RuleEditor
          owner={{ kind: "tenant", tenantId }}
          heading="Rules"
          description="Every request of this tenant is checked against all matching rules at once, by the path the protected API sees (through the gateway without /api/v1); a tier's rules, then a key's overrides, replace rules of the same name."
          emptyText="No rules: this tenant's keys are not limited."
          gatewayUpstream={tenant.data.upstream !== null}
        />
        <TiersCard tenantId={tenantId} canEdit={isAdmin} />
        <CallerGrantsCard tenantId={tenantId} canEdit={isAdmin} />
        <IdentifierOverridesCard tenantId={tenantId} canEdit={isAdmin} />
        <UpstreamCard tenant={tenant.data} canEdit={isAdmin} />
        <IdentityCard tenantId={tenantId} canEdit={isAdmin} />
        <AccessListsCard tenantId={tenantId} canEdit={isAdmin} />
        <AlertsCard tenantId={tenantId} canEdit={isAdmin} />
      </div>
    </>
  );
}
