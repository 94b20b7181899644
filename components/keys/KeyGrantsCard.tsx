"use client";
/**
 * A key's running grants (issue 33: extra units on a rule until a date) on the key page, and for
 * admins a small form to add one (units, rule, until) and a button to end one. The API's own
 * schema checks the form first; what the server refuses is shown on its field or above the form.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiGet, apiSend, ApiError, LIVE_INTERVAL_MS } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { FormError, SubmitButton } from "@/components/shell/FormError";
import { errorMessage } from "@/components/shell/PageState";
import { TextField } from "@/components/shell/TextField";
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
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["key", keyId] });

  const add = useMutation({
    mutationFn: (input: unknown) => apiSend<GrantView>("POST", path, input),
    onSuccess: () => {
      setUnits("");
      setRule("");
      setUntil("");
      refresh();
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) setErrors(error.fieldErrors);
      else setFormError(errorMessage(error));
    },
  });
  const end = useMutation({
    mutationFn: (id: string) => apiSend<null>("DELETE", `${path}/${encodeURIComponent(id)}`),
    onSuccess: refresh,
    onError: (error) => setFormError(errorMessage(error)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const at = until === "" ? undefined : new Date(until);
    const input = {
      units: units.trim() === "" ? Number.NaN : Number(units.trim()),
      ...(rule.trim() ? { rule: rule.trim() } : {}),
      ...(at ? { until: Number.isNaN(at.getTime()) ? until : at.toISOString() } : {}),
    };
    const parsed = grantSchema.safeParse(input);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0] ?? "units")] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    add.mutate(parsed.data);
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
        <form onSubmit={submit} noValidate aria-label="Add a grant">
          <FormError message={formError} />
          <div className="form-row">
            <TextField
              id="grant-units"
              label="Units"
              inputMode="numeric"
              value={units}
              onChange={(e) => setUnits(e.target.value)}
              error={errors.units}
            />
            <TextField
              id="grant-rule"
              label="Rule (empty: every key rule)"
              value={rule}
              onChange={(e) => setRule(e.target.value)}
              error={errors.rule}
            />
            <TextField
              id="grant-until"
              label="Until (your local time; empty: the window's end)"
              type="datetime-local"
              value={until}
              onChange={(e) => setUntil(e.target.value)}
              error={errors.until}
            />
            <div className="form-actions">
              <SubmitButton pending={add.isPending} pendingLabel="Granting…">
                Grant units
              </SubmitButton>
            </div>
          </div>
        </form>
      ) : null}
    </section>
  );
}
