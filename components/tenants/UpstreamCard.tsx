"use client";
/**
 * The tenant's gateway upstream on its page: where admitted requests under /api/v1 (other than
 * echo, check and authorize) are forwarded, or that there is none (those requests get 404).
 * Admins set, change and remove it; viewers only see it. With an upstream: the URL clients call,
 * its health and "Test connection" (UpstreamHealth).
 */
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { ConfirmButton } from "@/components/forms/ConfirmButton";
import { FormError } from "@/components/forms/FormError";
import { Empty } from "@/components/shell/PageState";
import { tenantPath, type TenantDetail } from "@/components/api/tenantQueries";
import type { SavedUpstream } from "@/lib/policy/upstreams/upstreamSchema";
import { UpstreamForm } from "./UpstreamForm";
import { UpstreamHealth } from "./UpstreamHealth";

export function UpstreamCard({ tenant, canEdit }: { tenant: TenantDetail; canEdit: boolean }) {
  const [saved, setSaved] = useState<SavedUpstream | null>(null);
  const queryClient = useQueryClient();
  const upstream = tenant.upstream;
  const remove = useMutation({
    mutationFn: () => apiSend<void>("DELETE", `${tenantPath(tenant.id)}/upstream`),
    onSuccess: () => {
      queryClient.setQueryData<TenantDetail>(["tenant", tenant.id], (old) => (old ? { ...old, upstream: null } : old));
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenant.id] });
    },
  });

  return (
    <section className="card" aria-labelledby="upstream-heading">
      <div className="card-header">
        <h2 id="upstream-heading">Gateway upstream</h2>
        {canEdit && upstream ? (
          <ConfirmButton
            label="Remove upstream"
            question="Remove the upstream? Requests to other paths under /api/v1 will get 404."
            confirmLabel="Remove"
            onConfirm={() => remove.mutateAsync().catch(() => undefined)}
          />
        ) : null}
      </div>
      <p className="hint">
        Requests under <code>/api/v1</code> other than echo, check and authorize are forwarded here once admitted,
        without <code>/api/v1</code>.
      </p>
      <FormError message={remove.error ? errorMessage(remove.error) : null} />
      {upstream ? (
        <dl aria-label="Current upstream">
          <dt>URL</dt>
          <dd>
            <code>{upstream.url}</code>
          </dd>
          <dt>Timeout</dt>
          <dd>{upstream.timeoutMs.toLocaleString("en-US")} ms</dd>
          <dt>Signed requests</dt>
          <dd>{upstream.signRequests ? <>on (secret {upstream.secretHint})</> : "off"}</dd>
        </dl>
      ) : null}
      {upstream ? (
        <UpstreamHealth tenantId={tenant.id} canTest={canEdit} />
      ) : (
        <Empty>No upstream: requests to paths other than echo, check and authorize get 404.</Empty>
      )}
      {/* Keyed by the stored upstream, so a removal (or another operator's change) resets the form. */}
      {canEdit ? (
        <UpstreamForm
          key={upstream ? `${upstream.url} ${upstream.timeoutMs} ${upstream.secretHint ?? ""}` : "none"}
          tenantId={tenant.id}
          current={upstream}
          onSaved={setSaved}
        />
      ) : null}
      {/* Here, not in the form: the refetch after a save re-keys the form, which would drop it. */}
      {saved ? (
        <div role="status" className="hint">
          <p>
            Saved: admitted requests are forwarded to <code>{saved.url}</code>.
          </p>
          {saved.secret ? (
            <p>
              Signing secret, shown only now (give it to the upstream to verify X-Sluice-Signature):{" "}
              <code data-testid="upstream-secret">{saved.secret}</code>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
