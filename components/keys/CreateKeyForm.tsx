"use client";
/**
 * Creates an API key for a tenant, optionally in a tier, then shows it once (CreatedKeyNotice).
 * Names and tiers use the API's own schemas.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, apiSend } from "@/components/api/apiClient";
import { NameCreateForm } from "@/components/forms/NameCreateForm";
import { TextField } from "@/components/forms/TextField";
import { TierOptions } from "./TierOptions";
import { useTiers } from "@/components/api/tierQueries";
import { createKeySchema } from "@/lib/control/admin/schemas";
import { tierNameSchema } from "@/lib/policy/tiers/tierName";
import { CreatedKeyNotice } from "./CreatedKeyNotice";
import { tenantKeysPath } from "./keyQueries";
import type { CreatedKey } from "./keyTypes";

export function CreateKeyForm({ tenantId }: { tenantId: string }) {
  const queryClient = useQueryClient();
  const tiers = useTiers(tenantId);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [tier, setTier] = useState("");

  function send(input: { name: string }): Promise<CreatedKey> {
    const named = tier.trim();
    if (named !== "") {
      const parsed = tierNameSchema.safeParse(named);
      if (!parsed.success) return Promise.reject(new Error(parsed.error.issues[0]?.message ?? "tier is invalid"));
    }
    return apiSend<CreatedKey>("POST", tenantKeysPath(tenantId), named ? { ...input, tier: named } : input).catch(
      (error: unknown) => {
        // Saved but not yet in force on this instance (503): the key exists and works within the
        // full-refresh period; its secret is shown now or never.
        if (error instanceof ApiError && error.resource) return error.resource as CreatedKey;
        throw error;
      },
    );
  }

  return (
    <>
      <NameCreateForm
        formLabel="Create API key"
        inputId="key-name"
        label="Key name"
        submitLabel="Create key"
        schema={createKeySchema}
        send={send}
        // Only a name that passes the check replaces the key on screen: it cannot be shown again.
        onSend={() => setCreated(null)}
        onCreated={(key) => {
          setCreated(key);
          setTier("");
          void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
        }}
      >
        <TextField
          id="key-tier-new"
          label="Tier (optional)"
          value={tier}
          list="key-tier-new-options"
          autoComplete="off"
          onChange={(e) => setTier(e.target.value)}
          hint="The tier (plan) the key is in: its rules apply between the tenant's and the key's own."
        />
        <TierOptions id="key-tier-new-options" tiers={tiers.data} />
      </NameCreateForm>
      {created ? <CreatedKeyNotice created={created} onDone={() => setCreated(null)} /> : null}
    </>
  );
}
