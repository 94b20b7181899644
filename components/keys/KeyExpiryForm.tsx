"use client";
/**
 * Edits a key's expiry on the key page: a local date and time (sent as an ISO instant, checked with
 * the API's own schema first), or "Never expires". What the server says about `expiresAt` is shown
 * on the field, anything else above the form.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiSend, ApiError, errorMessage } from "@/components/api/apiClient";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { formatDateTime } from "@/components/format/dateFormat";
import { DATE_TIME_PLACEHOLDER, parseDateText } from "@/components/format/dateInput";
import { TextField } from "@/components/forms/TextField";
import { keyExpirySchema } from "@/lib/policy/keys/keyExpiry";
import { keyPath } from "./keyQueries";
import type { KeyView } from "./keyTypes";

export function KeyExpiryForm({
  keyId,
  tenantId,
  expiresAt,
}: {
  keyId: string;
  tenantId: string;
  expiresAt: string | null;
}) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(() => (expiresAt ? formatDateTime(expiresAt) : ""));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (input: { expiresAt: string | null }) => apiSend<KeyView>("PATCH", keyPath(keyId), input),
    onSuccess: (key) => {
      setValue(key.expiresAt ? formatDateTime(key.expiresAt) : "");
      void queryClient.invalidateQueries({ queryKey: ["key", keyId] });
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fieldErrors.expiresAt) setFieldError(error.fieldErrors.expiresAt);
      else setFormError(errorMessage(error));
    },
  });

  function send(expires: string | null) {
    setFormError(null);
    const parsed = keyExpirySchema.safeParse({ expiresAt: expires });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? "expiresAt is invalid");
      return;
    }
    setFieldError(null);
    save.mutate({ expiresAt: expires });
  }

  /** The typed instant checked with the route's schema: an ISO string to send, or null (the error is shown). */
  function checked(text: string): string | null {
    if (text.trim() === "") {
      setFieldError("Choose a date and time, or use Never expires.");
      return null;
    }
    const at = parseDateText(text, true);
    if (at === null) {
      setFieldError(`Write a date and time such as ${DATE_TIME_PLACEHOLDER}.`);
      return null;
    }
    const iso = new Date(at).toISOString();
    const parsed = keyExpirySchema.safeParse({ expiresAt: iso });
    setFieldError(parsed.success ? null : (parsed.error.issues[0]?.message ?? "expiresAt is invalid"));
    return parsed.success ? iso : null;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const iso = checked(value);
    if (iso !== null) send(iso);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Key expiry">
      <FormError message={formError} />
      <div className="form-row">
        <TextField
          id="key-expires-at"
          label="Expires at (your local time)"
          value={value}
          placeholder={DATE_TIME_PLACEHOLDER}
          autoComplete="off"
          onChange={(e) => {
            setValue(e.target.value);
            setFieldError(null);
          }}
          onBlur={() => {
            if (value.trim() !== "") checked(value);
          }}
          error={fieldError}
          hint="From this instant every request with the key is refused (401) on every instance. A time in the past expires it now."
        />
        <div className="form-actions">
          <SubmitButton pending={save.isPending} pendingLabel="Saving…">
            Save expiry
          </SubmitButton>
          <button type="button" onClick={() => send(null)} disabled={save.isPending || expiresAt === null}>
            Never expires
          </button>
        </div>
      </div>
    </form>
  );
}
