"use client";
/**
 * The tenant's in-product alerts on its page: the webhook and its conditions, the last deliveries
 * (refreshed every 2 s) and, for admins, the form and a remove button; viewers only see them.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, apiSend, LIVE_INTERVAL_MS, type ApiError, errorMessage } from "@/components/api/apiClient";
import { DataTable } from "@/components/tables/DataTable";
import { ConfirmButton } from "@/components/forms/ConfirmButton";
import { FormError } from "@/components/forms/FormError";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import type { AlertDelivery, AlertsView } from "@/lib/control/alerts/alertAnswers";
import { AlertsForm } from "./AlertsForm";
import { formatDateTime } from "@/components/format/dateFormat";
import { tenantPath } from "@/components/api/tenantQueries";

const DELIVERY_COLUMNS = [
  { label: "Fired" },
  { label: "Condition" },
  { label: "Outcome" },
  { label: "Attempts", num: true },
  { label: "Last answer" },
];
const TYPE_LABEL: Record<AlertDelivery["type"], string> = {
  refusal_rate: "Refusal rate",
  client_limit: "Client limit",
};

function Deliveries({ deliveries }: { deliveries: AlertDelivery[] | null }) {
  if (deliveries === null)
    return <p className="hint">The last deliveries cannot be read right now (Redis unavailable).</p>;
  if (deliveries.length === 0) return <Empty>No alert delivered yet.</Empty>;
  return (
    <DataTable label="Last deliveries" columns={DELIVERY_COLUMNS}>
      {deliveries.map((d) => (
        <tr key={d.id}>
          <td>{formatDateTime(d.firedAt)}</td>
          <td>{TYPE_LABEL[d.type]}</td>
          <td>{d.outcome === "delivered" ? "Delivered" : "Failed"}</td>
          <td className="num">{d.attempts}</td>
          <td>{d.httpStatus !== null ? `HTTP ${d.httpStatus}` : (d.error ?? "–")}</td>
        </tr>
      ))}
    </DataTable>
  );
}

export function AlertsCard({ tenantId, canEdit }: { tenantId: string; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const alerts = useQuery<AlertsView, ApiError>({
    queryKey: ["alerts", tenantId],
    queryFn: () => apiGet<AlertsView>(`${tenantPath(tenantId)}/alerts`),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: () => apiSend<void>("DELETE", `${tenantPath(tenantId)}/alerts`),
    onSuccess: () => {
      setSaved(null);
      void queryClient.invalidateQueries({ queryKey: ["alerts", tenantId] });
    },
  });
  const settings = alerts.data?.settings ?? null;
  /** After a save: the signing secret it generated (shown once), or null. */
  const [saved, setSaved] = useState<{ secret: string | null } | null>(null);

  return (
    <section className="card" aria-labelledby="alerts-heading">
      <div className="card-header">
        <h2 id="alerts-heading">Alerts</h2>
        {canEdit && settings ? (
          <ConfirmButton
            label="Remove alerts"
            question="Remove the alerts? No condition will be evaluated any more."
            confirmLabel="Remove"
            onConfirm={() => remove.mutateAsync().catch(() => undefined)}
          />
        ) : null}
      </div>
      <p className="hint">
        A webhook for refusal spikes and clients hitting their limits, evaluated in the background, delivered at most
        once per condition window, signed (<code>Sluice-Signature</code>) and retried.
      </p>
      <FormError message={remove.error ? errorMessage(remove.error) : null} />
      {alerts.isPending ? <Loading label="Loading alerts…" /> : null}
      {alerts.error && !alerts.data ? <ErrorState error={alerts.error} /> : null}
      {alerts.data ? (
        <>
          {settings ? (
            <dl aria-label="Current alerts">
              <dt>Webhook</dt>
              <dd>
                {/* Viewers get only the hint: the URL itself is a capability (whoever has it can post). */}
                <code>{settings.webhookUrl ?? settings.webhookUrlHint}</code>{" "}
                <span className="muted">(secret {settings.secretHint})</span>
              </dd>
              <dt>Refusal rate</dt>
              <dd>
                {settings.refusalRate
                  ? `above ${settings.refusalRate.thresholdPct} % for ${settings.refusalRate.minutes} min (at least ${settings.refusalRate.minRequests} requests)`
                  : "off"}
              </dd>
              <dt>Client limit</dt>
              <dd>
                {settings.clientLimit
                  ? `${settings.clientLimit.hits} refusals within ${settings.clientLimit.windowMinutes} min`
                  : "off"}
              </dd>
              <dt>Billing hook</dt>
              <dd>
                {settings.billing
                  ? `each key's usage at the end of every ${settings.billing.period} (${settings.billing.timeZone ?? "UTC"})`
                  : "off"}
              </dd>
            </dl>
          ) : (
            <Empty>No alerts: nobody is told about refusal spikes.</Empty>
          )}
          {/* Keyed by the stored settings, so a removal (or another operator's change) resets the form. */}
          {canEdit ? (
            <AlertsForm
              key={settings?.updatedAt ?? "none"}
              tenantId={tenantId}
              current={settings}
              onSaved={(secret) => setSaved({ secret })}
            />
          ) : null}
          {saved ? (
            <div role="status" className="hint">
              <p>Saved: the conditions are evaluated every few seconds on every instance.</p>
              {saved.secret ? (
                <p>
                  Signing secret, shown only now (store it to verify deliveries):{" "}
                  <code data-testid="alerts-secret">{saved.secret}</code>
                </p>
              ) : null}
            </div>
          ) : null}
          <h3>Last deliveries</h3>
          <Deliveries deliveries={alerts.data.deliveries} />
        </>
      ) : null}
    </section>
  );
}
