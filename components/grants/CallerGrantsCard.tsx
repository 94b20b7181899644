"use client";
/**
 * Grants for JWT subjects and tiers (issue 33: extra units on a rule until a date), from
 * GET /api/admin/tenants/{tenantId}/grants. On a JWT caller's page (`subject` given) the card
 * shows that subject's grants; on the tenant page (no `subject`) every subject's and tier's, beside
 * the tiers. Admins add one (units, rule, until, and on the tenant page the subject or tier) and
 * end one. The API's own schema checks the form first; what the server refuses is shown on its
 * field or above the form.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, apiSend, ApiError, errorMessage, LIVE_INTERVAL_MS } from "@/components/api/apiClient";
import { CheckedForm, useCheckedForm } from "@/components/forms/CheckedForm";
import { FormError } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";
import type { CallerGrantView as Grant } from "@/lib/control/admin/grantAnswers";
import { callerGrantSchema } from "@/lib/control/admin/schemas";
import { GrantFields, GrantsTable, useEndGrant, useGrantFields } from "./grantParts";

/** On the tenant page, "tier:pro" names a tier; anything else is a JWT subject. */
function ownerOf(subject: string | undefined, named: string): { subject: string } | { tier: string } | object {
  if (subject !== undefined) return { subject };
  if (named.startsWith("tier:")) return { tier: named.slice("tier:".length) };
  return named ? { subject: named } : {};
}

export function CallerGrantsCard({
  tenantId,
  subject,
  canEdit,
}: {
  tenantId: string;
  /** A JWT caller's subject: only its grants, and new ones are its own. Absent: every subject's and tier's. */
  subject?: string;
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const path = `/api/admin/tenants/${encodeURIComponent(tenantId)}/grants`;
  const listPath = subject === undefined ? path : `${path}?subject=${encodeURIComponent(subject)}`;
  const grants = useQuery<Grant[], ApiError>({
    queryKey: ["tenant", tenantId, "grants", subject ?? ""],
    queryFn: () => apiGet<Grant[]>(listPath),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const fields = useGrantFields();
  const [who, setWho] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId, "grants"] });

  const form = useCheckedForm({
    schema: callerGrantSchema,
    send: (grant) => apiSend<Grant>("POST", path, grant),
    onSent: () => {
      fields.reset();
      setWho("");
      refresh();
    },
  });
  const { end, endError, clearEndError } = useEndGrant(path, refresh);

  return (
    <section className="card" aria-label="Caller grants">
      <h2>{subject === undefined ? "Grants for JWT callers and tiers" : "Grants"}</h2>
      <p className="muted">
        {subject === undefined
          ? "Extra units for a JWT subject, or for each caller of a tier (each key of it, each token naming it), until a date; key grants are on each key's page."
          : "Extra units for this JWT caller on a rule until a date; grants add up (with its tier's too) and end by themselves."}
      </p>
      {grants.error ? <FormError message={errorMessage(grants.error)} /> : null}
      <GrantsTable
        grants={grants.data ?? []}
        {...(subject === undefined
          ? { forOf: (g: Grant) => (g.tier !== null ? `tier ${g.tier}` : `subject ${g.subject ?? ""}`) }
          : {})}
        canEdit={canEdit}
        onEnd={(id) => end.mutate(id)}
        ending={end.isPending}
        emptyTestId="no-caller-grants"
      />
      {canEdit ? (
        <CheckedForm
          form={{ ...form, formError: endError ?? form.formError }}
          onSubmit={() => {
            clearEndError();
            form.submit({ ...ownerOf(subject, who.trim()), ...fields.input() });
          }}
          label="Add a caller grant"
          submitLabel="Grant units"
          pendingLabel="Granting…"
        >
          {subject === undefined ? (
            <TextField
              id="caller-grant-who"
              label="For (a JWT subject, or tier:<name>)"
              value={who}
              onChange={(e) => setWho(e.target.value)}
              error={form.fieldErrors.subject ?? form.fieldErrors.tier}
            />
          ) : null}
          <GrantFields idPrefix="caller-grant" fields={fields} errors={form.fieldErrors} />
        </CheckedForm>
      ) : null}
    </section>
  );
}
