"use client";
/**
 * The tenant's hosts and callers on its page (PUT /api/admin/tenants/{id}/identity): which hosts
 * are its own (every path, forwarded as sent), whether Sluice keys, JWTs and anonymous callers are
 * accepted there, and in one sentence what a client of those hosts must send. Admins edit them
 * (IdentityForm); viewers only see them.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, LIVE_INTERVAL_MS, type ApiError } from "@/components/api/apiClient";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import type { TenantIdentity } from "@/lib/policy/identity/identitySchema";
import { identitySummary } from "@/lib/policy/identity/identitySummary";
import { IdentityForm } from "./IdentityForm";
import { tenantPath } from "@/components/api/tenantQueries";

export function useIdentity(tenantId: string) {
  return useQuery<TenantIdentity, ApiError>({
    queryKey: ["tenant", tenantId, "identity"],
    queryFn: () => apiGet<TenantIdentity>(`${tenantPath(tenantId)}/identity`),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}

export function IdentityCard({ tenantId, canEdit }: { tenantId: string; canEdit: boolean }) {
  const identity = useIdentity(tenantId);
  const data = identity.data;
  const [saved, setSaved] = useState(false);
  return (
    <section className="card" aria-labelledby="identity-heading">
      <div className="card-header">
        <h2 id="identity-heading">Hosts and callers</h2>
      </div>
      <p className="hint">
        A request whose host is one of these is this tenant&apos;s on every path: checked against its rules and
        forwarded as sent to its upstream. Sluice&apos;s own pages are never served there.
      </p>
      {identity.isPending ? <Loading label="Loading hosts and callers…" /> : null}
      {identity.error ? <ErrorState error={identity.error} /> : null}
      {data ? (
        <>
          <p role="note" data-testid="identity-summary">
            {identitySummary(data)}
          </p>
          {canEdit ? (
            // Keyed by the stored settings, so another operator's change resets the form.
            <IdentityForm key={JSON.stringify(data)} tenantId={tenantId} current={data} onSaved={setSaved} />
          ) : (
            <dl aria-label="Current hosts and callers">
              <dt>Hosts</dt>
              <dd>{data.hosts.length > 0 ? data.hosts.join(", ") : <Empty>None.</Empty>}</dd>
              <dt>Sluice API keys</dt>
              <dd>{data.apiKeys ? "accepted" : "not accepted"}</dd>
              <dt>JWTs</dt>
              <dd>{data.jwt ? (data.jwt.jwksUrl ?? "inline keys") : "not accepted"}</dd>
              <dt>Anonymous callers</dt>
              <dd>{data.anonymous ? "admitted, limited per IP" : "refused (401)"}</dd>
            </dl>
          )}
        </>
      ) : null}
      {saved ? (
        <p role="status" className="hint">
          Saved: in force on every instance within a second.
        </p>
      ) : null}
    </section>
  );
}
