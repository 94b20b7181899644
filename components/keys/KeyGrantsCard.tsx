"use client";
/**
 * A key's running grants (issue 33: extra units on a rule until a date) on the key page, and for
 * admins a small form to add one (units, rule, until) and a button to end one. The API's own
 * schema checks the form first; what the server refuses is shown on its field or above the form.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, apiSend, ApiError, LIVE_INTERVAL_MS, errorMessage } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { CheckedForm, useCheckedForm } from "@/components/forms/CheckedForm";
import { TextField } from "@/components/forms/TextField";
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
  const [units, setUnits] = useState("");
  const [rule, setRule] = useState("");
  const [until, setUntil] = useState("");
  const [endError, setEndError] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["key", keyId] });

  const form = useCheckedForm({
    schema: grantSchema,
    send: (grant) => apiSend<GrantView>("POST", path, grant),
    onSent: () => {
      setUnits("");
      setRule("");
      setUntil("");
      refresh();
    },
  });
  const end = useMutation({
    mutationFn: (id: string) => apiSend<null>("DELETE", `${path}/${encodeURIComponent(id)}`),
    onSuccess: refresh,
    onError: (error) => setEndError(errorMessage(error)),
  });

  function submit() {
    setEndError(null);
    const at = until === "" ? undefined : new Date(until);
    form.submit({
      units: units.trim() === "" ? Number.NaN : Number(units.trim()),
      ...(rule.trim() ? { rule: rule.trim() } : {}),
      ...(at ? { until: Number.isNaN(at.getTime()) ? until : at.toISOString() } : {}),
    });
  }

  const list = grants.data ?? [];
  return (
    <section className="card" aria-label="Grants">
      <h2>Grants</h2>
      <p className="muted">Extra units for this key on a rule until a date; grants add up and end by themselves.</p>
      {list.length === 0 ? (
        <p data-testid="no-grants">No running grants.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Rule</th>
              <th className="num">Units</th>
              <th>Until</th>
              <th>By</th>
              {canEdit ? <th /> : null}
            </tr>
          </thead>
          <tbody>
            {list.map((g) => (
              <tr key={g.id}>
                <td>{g.rule ? <code>{g.rule}</code> : "every key rule"}</td>
                <td className="num">{g.units.toLocaleString("en")}</td>
                <td>{formatDateTime(g.until)}</td>
                <td className="name">{g.createdBy}</td>
                {canEdit ? (
                  <td>
                    <button type="button" onClick={() => end.mutate(g.id)} disabled={end.isPending}>
                      End
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit ? (
        <CheckedForm
          form={{ ...form, formError: endError ?? form.formError }}
          onSubmit={submit}
          label="Add a grant"
          submitLabel="Grant units"
          pendingLabel="Granting…"
        >
          <TextField
            id="grant-units"
            label="Units"
            inputMode="numeric"
            value={units}
            onChange={(e) => setUnits(e.target.value)}
            error={form.fieldErrors.units}
          />
          <TextField
            id="grant-rule"
            label="Rule (empty: every key rule)"
            value={rule}
            onChange={(e) => setRule(e.target.value)}
            error={form.fieldErrors.rule}
          />
          <TextField
            id="grant-until"
            label="Until (your local time; empty: the window's end)"
            type="datetime-local"
            value={until}
            onChange={(e) => setUntil(e.target.value)}
            error={form.fieldErrors.until}
          />
        </CheckedForm>
      ) : null}
    </section>
  );
}
