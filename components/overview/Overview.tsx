"use client";
/**
 * The overview at `/`: first, who is limited right now; then live traffic of every tenant, 429
 * rates and hot keys over the range in the URL (presets, custom, pause: MonitoringControls). An
 * operator limited to tenants gets the same per tenant of its own (LimitedOperatorOverview).
 */
import { useTenantLimit } from "@/components/api/useSession";
import { HotKeysTable } from "@/components/charts/HotKeysTable";
import { MonitoringControls } from "@/components/charts/MonitoringControls";
import { RefusalRateChart } from "@/components/charts/RefusalRateChart";
import { TrafficChart } from "@/components/charts/TrafficChart";
import { useMonitoringView, type MonitoringView } from "@/components/charts/useMonitoringView";
import { LimitedNowTable } from "./LimitedNowTable";
import { LimitedOperatorOverview } from "./LimitedOperatorOverview";

export default function Overview() {
  const monitoring = useMonitoringView();
  const { view } = monitoring;
  const limit = useTenantLimit();
  return (
    <>
      <div className="page-header">
        <h1>Overview</h1>
        <MonitoringControls {...monitoring} />
      </div>
      {limit ? (
        <div className="stack">
          <LimitedOperatorOverview view={view} />
        </div>
      ) : (
        <InstanceOverview view={view} />
      )}
    </>
  );
}

function InstanceOverview({ view }: { view: MonitoringView }) {
  return (
    <div className="stack">
      <LimitedNowTable />
      <TrafficChart view={view} title="Requests per second, all tenants" />
      <div className="grid-2">
        <RefusalRateChart view={view} by="tenant" />
        <RefusalRateChart view={view} by="rule" />
      </div>
      <HotKeysTable view={view} />
    </div>
  );
}
