"use client";
/**
 * Sets a tenant's alert webhook and conditions (admins only). Checked with the admin API's own
 * schema (lib/control/alerts/alertSchema.ts, zod only) before sending, so both give the same messages
 * under the same fields; a 422 from the server is shown the same way. What a save answered (a
 * generated signing secret, shown once) goes to `onSaved`: this form is re-keyed by the stored
 * settings and would lose it.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiError, apiSend, errorMessage } from "@/components/api/apiClient";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";
import {
  alertSettingsSchema,
  BILLING_PERIODS,
  DEFAULT_MIN_REQUESTS,
  type BillingPeriod,
  type AlertSettingsInput,
} from "@/lib/control/alerts/alertSchema";
import type { StoredAlertSettings } from "@/lib/control/alerts/alertAnswers";
import styles from "./AlertsForm.module.css";
import { tenantPath } from "@/components/api/tenantQueries";

const text = (n: number | undefined) => (n === undefined ? "" : String(n));
/** An empty field stays undefined so the schema's own "must be a number" message or default applies. */
const num = (s: string): number | undefined => (s.trim() === "" ? undefined : Number(s));

/** A condition: its on/off checkbox as the legend, its fields only while on. */
function ConditionFieldset({
  label,
  on,
  setOn,
  children,
}: {
  label: string;
  on: boolean;
  setOn: (on: boolean) => void;
  children: ReactNode;
}) {
  return (
    <fieldset className={styles.condition}>
      <legend>
        <label className="inline-check">
          <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} /> {label}
        </label>
      </legend>
      {on ? <div className="form-row">{children}</div> : null}
    </fieldset>
  );
}

export function AlertsForm({
  tenantId,
  current,
  onSaved,
}: {
  tenantId: string;
  current: StoredAlertSettings | null;
  onSaved: (secret: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const [webhookUrl, setWebhookUrl] = useState(current?.webhookUrl ?? "");
  const [rateOn, setRateOn] = useState(current ? current.refusalRate !== null : true);
  const [thresholdPct, setThresholdPct] = useState(text(current?.refusalRate?.thresholdPct ?? 20));
  const [minutes, setMinutes] = useState(text(current?.refusalRate?.minutes ?? 5));
  const [minRequests, setMinRequests] = useState(text(current?.refusalRate?.minRequests ?? DEFAULT_MIN_REQUESTS));
  const [limitOn, setLimitOn] = useState(current ? current.clientLimit !== null : false);
  const [hits, setHits] = useState(text(current?.clientLimit?.hits ?? 100));
  const [windowMinutes, setWindowMinutes] = useState(text(current?.clientLimit?.windowMinutes ?? 10));
  const [billingOn, setBillingOn] = useState(current ? (current.billing ?? null) !== null : false);
  const [billingPeriod, setBillingPeriod] = useState<BillingPeriod>(current?.billing?.period ?? "month");
  const [rotateSecret, setRotateSecret] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (input: AlertSettingsInput) =>
      apiSend<{ settings: StoredAlertSettings; secret?: string }>("PUT", `${tenantPath(tenantId)}/alerts`, input),
    onSuccess: (saved) => {
      onSaved(saved.secret ?? null);
      setRotateSecret(false);
      void queryClient.invalidateQueries({ queryKey: ["alerts", tenantId] });
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) setErrors(error.fieldErrors);
      else setFormError(errorMessage(error));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const input = {
      webhookUrl,
      refusalRate: rateOn
        ? { thresholdPct: num(thresholdPct), minutes: num(minutes), minRequests: num(minRequests) }
        : null,
      clientLimit: limitOn ? { hits: num(hits), windowMinutes: num(windowMinutes) } : null,
      // The billing time zone is set through the API or the policy document; a save here keeps it.
      billing: billingOn
        ? { period: billingPeriod, ...(current?.billing?.timeZone ? { timeZone: current.billing.timeZone } : {}) }
        : null,
      rotateSecret,
    };
    const parsed = alertSettingsSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(input as AlertSettingsInput);
  }

  const field = (id: string, label: string, path: string, value: string, set: (v: string) => void, hint: string) => (
    <TextField
      id={id}
      label={label}
      value={value}
      inputMode="decimal"
      onChange={(e) => set(e.target.value)}
      error={errors[path]}
      hint={hint}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Alert settings">
      <FormError message={formError} />
      <FormError message={errors.conditions} />
      <div className="form-row">
        <TextField
          id="alerts-url"
          label="Webhook URL"
          value={webhookUrl}
          placeholder="https://hooks.example.com/sluice"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setWebhookUrl(e.target.value)}
          error={errors.webhookUrl ?? errors[""]}
          hint="http or https; alerts are POSTed as signed JSON."
        />
      </div>
      <ConditionFieldset label="Refusal rate" on={rateOn} setOn={setRateOn}>
        {field(
          "alerts-threshold",
          "Refusals above (%)",
          "refusalRate.thresholdPct",
          thresholdPct,
          setThresholdPct,
          "Share of this tenant's requests refused.",
        )}
        {field(
          "alerts-minutes",
          "For (minutes)",
          "refusalRate.minutes",
          minutes,
          setMinutes,
          "1 to 60: the trailing window.",
        )}
        {field(
          "alerts-min-requests",
          "At least (requests)",
          "refusalRate.minRequests",
          minRequests,
          setMinRequests,
          "Fewer requests in the window never alert.",
        )}
      </ConditionFieldset>
      <ConditionFieldset label="A client hit its limit" on={limitOn} setOn={setLimitOn}>
        {field("alerts-hits", "Times (N)", "clientLimit.hits", hits, setHits, "Refusals of one client by one rule.")}
        {field(
          "alerts-window",
          "Within (minutes)",
          "clientLimit.windowMinutes",
          windowMinutes,
          setWindowMinutes,
          "1 to 60.",
        )}
      </ConditionFieldset>
      <ConditionFieldset label="Usage at each period's end (billing)" on={billingOn} setOn={setBillingOn}>
        <label>
          Period (UTC){" "}
          <select
            value={billingPeriod}
            onChange={(e) => setBillingPeriod(e.target.value as BillingPeriod)}
            aria-label="Billing period"
          >
            {BILLING_PERIODS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <p className="hint">Each key&apos;s usage of the closed period, signed, with an idempotency key.</p>
      </ConditionFieldset>
      <div className={styles.actions}>
        {current ? (
          <label className="inline-check">
            <input type="checkbox" checked={rotateSecret} onChange={(e) => setRotateSecret(e.target.checked)} />{" "}
            Generate a new signing secret
          </label>
        ) : null}
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save alerts
        </SubmitButton>
      </div>
    </form>
  );
}
