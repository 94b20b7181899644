"use client";
/**
 * Puts a key in a tier (plan) on the key page, or in none: a tier name (checked with the API's own
 * schema first; the tenant's tiers are offered, and a new name is allowed: the tier then has no
 * rules yet and the key keeps the tenant's). What the server says about `tier` is shown on the field.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiSend, ApiError, errorMessage } from "@/components/api/apiClient";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";
import { TierOptions } from "./TierOptions";
import { useTiers } from "@/components/api/tierQueries";
import { keyTierSchema } from "@/lib/policy/tiers/tierName";
import { keyPath } from "./keyQueries";
import type { KeyView } from "./keyTypes";

export function KeyTierForm({ keyId, tenantId, tier }: { keyId: string; tenantId: string; tier: string | null }) {
  const queryClient = useQueryClient();
  const tiers = useTiers(tenantId);
  const [value, setValue] = useState(tier ?? "");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (input: { tier: string | null }) => apiSend<KeyView>("PATCH", keyPath(keyId), input),
    onSuccess: (key) => {
      setValue(key.tier ?? "");
      void queryClient.invalidateQueries({ queryKey: ["key", keyId] });
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fieldErrors.tier) setFieldError(error.fieldErrors.tier);
      else setFormError(errorMessage(error));
    },
  });

  function send(next: string | null) {
    setFormError(null);
    const parsed = keyTierSchema.safeParse(next);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? "tier is invalid");
      return;
    }
    setFieldError(null);
    save.mutate({ tier: parsed.data });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send(value.trim() === "" ? null : value.trim());
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Key tier">
      <FormError message={formError} />
      <div className="form-row">
        <TextField
          id="key-tier"
          label="Tier"
          value={value}
          list="key-tier-options"
          placeholder="none"
          onChange={(e) => {
            setValue(e.target.value);
            setFieldError(null);
          }}
          error={fieldError}
          hint="The tier's rules apply between the tenant's and this key's own. Empty: no tier."
        />
        <TierOptions id="key-tier-options" tiers={tiers.data} />
        <div className="form-actions">
          <SubmitButton pending={save.isPending} pendingLabel="Saving…">
            Save tier
          </SubmitButton>
          <button type="button" onClick={() => send(null)} disabled={save.isPending || tier === null}>
            No tier
          </button>
        </div>
      </div>
    </form>
  );
}
