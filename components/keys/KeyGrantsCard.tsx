"use client";
/**
 * A key's running grants (issue 33: extra units on a rule until a date) on the key page, and for
 * admins a small form to add one (units, rule, until) and a button to end one. The API's own
 * schema checks the form first; what the server refuses is shown on its field or above the form.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend, ApiError, LIVE_INTERVAL_MS } from "@/components/api/apiClient";
import { CheckedForm, useCheckedForm } from "@/components/forms/CheckedForm";
import { GrantFields, GrantsTable, useEndGrant, useGrantFields } from "@/components/grants/grantParts";
import { grantSchema } from "@/lib/control/admin/schemas";
import type { GrantView } from "@/lib/control/admin/grantAnswers";
import { keyPath } from "./keyQueries";

export function KeyGrantsCard({ keyId, canEdit }: { keyId: string; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const path = `${keyPath(keyId)}/grants`;
  const grants = useQuery<GrantView[], ApiError>({
    queryKey: ["key", keyId, "grants"],
    queryFn: () => apiGet<GrantView[]>(path),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const fields = useGrantFields();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["key", keyId] });

  const form = useCheckedForm({
    schema: grantSchema,
    send: (grant) => apiSend<GrantView>("POST", path, grant),
    onSent: () => {
      fields.reset();
      refresh();
    },
  });
  const { end, endError, clearEndError } = useEndGrant(path, refresh);

  return (
    <section className="card" aria-label="Grants">
      <h2>Grants</h2>
      <p className="muted">Extra units for this key on a rule until a date; grants add up and end by themselves.</p>
      <GrantsTable
        grants={grants.data ?? []}
        canEdit={canEdit}
        onEnd={(id) => end.mutate(id)}
        ending={end.isPending}
        emptyTestId="no-grants"
      />
      {canEdit ? (
        <CheckedForm
          form={{ ...form, formError: endError ?? form.formError }}
          onSubmit={() => {
            clearEndError();
            form.submit(fields.input());
          }}
          label="Add a grant"
          submitLabel="Grant units"
          pendingLabel="Granting…"
        >
          <GrantFields idPrefix="grant" fields={fields} errors={form.fieldErrors} />
        </CheckedForm>
      ) : null}
    </section>
  );
}
