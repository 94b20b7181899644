"use client";
/**
 * Sets or replaces a tenant's gateway upstream (admins only). Checked with the admin API's own
 * schema (lib/policy/upstreams/upstreamSchema.ts) before sending, so both give the same messages; what the
 * server says about a field (a 422) is shown on that field, anything else above the form. An empty
 * timeout means the default. "Sign requests" keeps the stored secret while it stays on; the
 * secret a save generates is handed to `onSaved`, to be shown once.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend, errorMessage } from "@/components/api/apiClient";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";
import {
  UPSTREAM_TIMEOUT_DEFAULT_MS,
  upstreamSchema,
  type SavedUpstream,
  type UpstreamInput,
  type UpstreamView,
} from "@/lib/policy/upstreams/upstreamSchema";
import { tenantPath } from "@/components/api/tenantQueries";

function withoutField(errors: Record<string, string>, field: string): Record<string, string> {
  const rest = { ...errors };
  delete rest[field];
  return rest;
}

/** `onSaved` is told each saved upstream (null when a new save starts): the card shows it, since a save re-keys this form. */
export function UpstreamForm({
  tenantId,
  current,
  onSaved,
}: {
  tenantId: string;
  current: UpstreamView | null;
  onSaved: (saved: SavedUpstream | null) => void;
}) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(current?.url ?? "");
  const [timeout, setTimeoutText] = useState(current ? String(current.timeoutMs) : "");
  const [signRequests, setSignRequests] = useState(current?.signRequests === true);
  const [rotateSecret, setRotateSecret] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (input: UpstreamInput) => apiSend<SavedUpstream>("PUT", `${tenantPath(tenantId)}/upstream`, input),
    onSuccess: (upstream) => {
      onSaved(upstream);
      setUrl(upstream.url);
      setTimeoutText(String(upstream.timeoutMs));
      setRotateSecret(false);
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.fieldErrors.url || error.fieldErrors.timeoutMs))
        setErrors(error.fieldErrors);
      else setFormError(errorMessage(error));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    onSaved(null);
    const input: Record<string, unknown> = { url, signRequests, rotateSecret: signRequests && rotateSecret };
    if (timeout.trim() !== "") input.timeoutMs = Number(timeout);
    const parsed = upstreamSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(input as UpstreamInput);
  }

  return (
    <form onSubmit={submit} noValidate aria-label={current ? "Change upstream" : "Set upstream"}>
      <FormError message={formError} />
      <div className="form-row">
        <TextField
          id="upstream-url"
          label="Upstream URL"
          value={url}
          placeholder="https://api.example.com"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            setUrl(e.target.value);
            setErrors((old) => withoutField(old, "url"));
          }}
          error={errors.url ?? errors[""]}
          hint="http or https, without credentials, query or fragment; a path prefixes the forwarded one."
        />
        <TextField
          id="upstream-timeout"
          label="Timeout (ms)"
          value={timeout}
          inputMode="numeric"
          placeholder={String(UPSTREAM_TIMEOUT_DEFAULT_MS)}
          onChange={(e) => {
            setTimeoutText(e.target.value);
            setErrors((old) => withoutField(old, "timeoutMs"));
          }}
          error={errors.timeoutMs}
          hint="100 to 120,000; no answer in time is a 504."
        />
        <label className="inline-check">
          <input type="checkbox" checked={signRequests} onChange={(e) => setSignRequests(e.target.checked)} /> Sign
          requests (X-Sluice-Signature)
        </label>
        {current?.signRequests && signRequests ? (
          <label className="inline-check">
            <input type="checkbox" checked={rotateSecret} onChange={(e) => setRotateSecret(e.target.checked)} />{" "}
            Generate a new signing secret
          </label>
        ) : null}
        <div className="form-actions">
          <SubmitButton pending={save.isPending} pendingLabel="Saving…">
            Save upstream
          </SubmitButton>
        </div>
      </div>
    </form>
  );
}
