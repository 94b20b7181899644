"use client";
/**
 * Grants for JWT subjects and tiers (issue 33: extra units on a rule until a date), from
 * GET /api/admin/tenants/{tenantId}/grants. On a JWT caller's page (`owner` its subject) the card
 * shows that subject's grants; on the tenant page (no `owner`) every subject's and tier's, beside
 * the tiers. Admins add one (units, rule, until, and on the tenant page the subject or tier) and
 * end one. The API's own schema checks the form first; what the server refuses is shown on its
 * field or above the form.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiGet, apiSend, ApiError, errorMessage, LIVE_INTERVAL_MS } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { FormError, SubmitButton } from "@/components/forms/FormError";

import { TextField } from "@/components/forms/TextField";
import type { CallerGrantView as Grant } from "@/lib/control/admin/grantAnswers";
import { callerGrantSchema } from "@/lib/control/admin/schemas";

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
  const queryKey = ["tenant", tenantId, "grants", subject ?? ""];
  const grants = useQuery<Grant[], ApiError>({
    queryKey,
    queryFn: () => apiGet<Grant[]>(listPath),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const [units, setUnits] = useState("");
  const [who, setWho] = useState("");
  const [rule, setRule] = useState("");
  const [until, setUntil] = useState("");
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId, "grants"] });

  const add = useMutation({
    mutationFn: (input: unknown) => apiSend<Grant>("POST", path, input),
    onSuccess: () => {
      setUnits("");
      setWho("");
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
    // On the tenant page, "tier:pro" names a tier; anything else is a JWT subject.
    const named = who.trim();
    const owner =
      subject !== undefined
        ? { subject }
        : named.startsWith("tier:")
          ? { tier: named.slice("tier:".length) }
          : named
            ? { subject: named }
            : {};
    const input = {
      units: units.trim() === "" ? Number.NaN : Number(units.trim()),
      ...owner,
      ...(rule.trim() ? { rule: rule.trim() } : {}),
      ...(at ? { until: Number.isNaN(at.getTime()) ? until : at.toISOString() } : {}),
    };
    const parsed = callerGrantSchema.safeParse(input);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "units");
        next[field === "tier" || field === "subject" ? "who" : field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    add.mutate(parsed.data);
  }

  const list = grants.data ?? [];
  const whoError = errors.who ?? errors.subject ?? errors.tier;
  return (
    <section className="card" aria-label="Caller grants">
      <h2>{subject === undefined ? "Grants for JWT callers and tiers" : "Grants"}</h2>
      <p className="muted">
        {subject === undefined
          ? "Extra units for a JWT subject, or for each caller of a tier (each key of it, each token naming it), until a date; key grants are on each key's page."
          : "Extra units for this JWT caller on a rule until a date; grants add up (with its tier's too) and end by themselves."}
      </p>
      {grants.error ? <FormError message={errorMessage(grants.error)} /> : null}
      {list.length === 0 ? (
        <p data-testid="no-caller-grants">No running grants.</p>
      ) : (
        <table>
          <thead>
            <tr>
              {subject === undefined ? <th>For</th> : null}
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
                {subject === undefined ? (
                  <td className="name">{g.tier !== null ? `tier ${g.tier}` : `subject ${g.subject ?? ""}`}</td>
                ) : null}
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
        <form onSubmit={submit} noValidate aria-label="Add a caller grant">
          <FormError message={formError} />
          <div className="form-row">
            {subject === undefined ? (
              <TextField
                id="caller-grant-who"
                label="For (a JWT subject, or tier:<name>)"
                value={who}
                onChange={(e) => setWho(e.target.value)}
                error={whoError}
              />
            ) : null}
            <TextField
              id="caller-grant-units"
              label="Units"
              inputMode="numeric"
              value={units}
              onChange={(e) => setUnits(e.target.value)}
              error={errors.units}
            />
            <TextField
              id="caller-grant-rule"
              label="Rule (empty: every key rule)"
              value={rule}
              onChange={(e) => setRule(e.target.value)}
              error={errors.rule}
            />
            <TextField
              id="caller-grant-until"
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
