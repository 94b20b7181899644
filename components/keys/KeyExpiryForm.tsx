"use client";
/**
 * Edits a key's expiry on the key page: a local date and time (sent as an ISO instant, checked with
 * the API's own schema first), or "Never expires". What the server says about `expiresAt` is shown
 * on the field, anything else above the form.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiSend, ApiError } from "@/components/api/apiClient";
import { FormError, SubmitButton } from "@/components/shell/FormError";
import { toLocalInput } from "@/components/format/dateFormat";
import { errorMessage } from "@/components/shell/PageState";
import { TextField } from "@/components/shell/TextField";
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
  const [value, setValue] = useState(() => toLocalInput(expiresAt));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (input: { expiresAt: string | null }) => apiSend<KeyView>("PATCH", keyPath(keyId), input),
    onSuccess: (key) => {
      setValue(toLocalInput(key.expiresAt));
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

  function submit(event: FormEvent) {
    event.preventDefault();
    if (value === "") {
      setFieldError("Choose a date and time, or use Never expires.");
      return;
    }
    const at = new Date(value);
    send(Number.isNaN(at.getTime()) ? value : at.toISOString());
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Key expiry">
      <FormError message={formError} />
      <div className="form-row">
        <TextField
          id="key-expires-at"
          label="Expires at (your local time)"
          type="datetime-local"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setFieldError(null);
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
