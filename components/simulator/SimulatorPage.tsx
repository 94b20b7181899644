"use client";
/**
 * `/tenants/[tenantId]/simulate`: the tenant's current rules loaded into the rule editor as a
 * candidate, a range, "Run simulation" (POST …/simulate replays the recorded requests through
 * both rule sets; it changes nothing, so viewers may run it too), the report, and for admins the
 * ways to put the simulated candidate in force.
 */
import Link from "next/link";
import { useIsAdmin } from "@/components/api/useSession";
import { useRules } from "@/components/rules/ruleQueries";
import { ErrorState, Loading } from "@/components/shell/PageState";
import { useTenant } from "@/components/api/tenantQueries";
import { SimulatorWorkbench } from "./SimulatorWorkbench";

export default function SimulatorPage({ tenantId }: { tenantId: string }) {
  const isAdmin = useIsAdmin();
  const tenant = useTenant(tenantId);
  const rules = useRules({ kind: "tenant", tenantId });

  const back = (
    <p className="hint">
      <Link href={`/tenants/${tenantId}`}>
        ← {tenant.data ? <span className="name">{tenant.data.name}</span> : "Tenant"}
      </Link>
    </p>
  );
  if (tenant.isPending || rules.isPending) return <Loading label="Loading the tenant's rules…" />;
  if (!tenant.data || !rules.data) {
    return (
      <>
        {back}
        <ErrorState error={tenant.error ?? rules.error} />
      </>
    );
  }

  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1>
            Rule simulator: <span className="name">{tenant.data.name}</span>
          </h1>
          <p className="hint">
            Edit a candidate rule list, then replay this tenant&apos;s recorded requests through the current rules and
            the candidate side by side: who would be refused, and how often. Nothing changes until{" "}
            {isAdmin ? "you start the candidate in shadow mode or enforce it" : "an admin applies it"}.
          </p>
        </div>
      </div>
      <SimulatorWorkbench tenantId={tenantId} initialRules={rules.data} currentRules={rules.data} canApply={isAdmin} />
    </>
  );
}
