"use client";
/**
 * Per-identifier limits of the tenant's `identifier` rules (POST /api/v1/check): for each such rule
 * its overrides, exact (`acme`) or a prefix (`enterprise:*`). Admins edit a rule's list and save it
 * whole; it is checked with the admin API's own schema (lib/policy/overrides/overrideSchema.ts) first, and
 * every message, the browser's or the server's 422, lands on its field. Viewers only see the lists.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiGet, apiSend, errorMessage } from "@/components/api/apiClient";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { TextField } from "@/components/forms/TextField";
import {
  identifierOverrideListSchema,
  type IdentifierOverride,
  type RuleOverrides,
} from "@/lib/policy/overrides/overrideSchema";
import { useRules } from "./ruleQueries";

interface IdentifierOverrideDraft {
  id: number;
  identifier: string;
  limit: string;
  windowMs: string;
  burst: string;
}

let nextDraftId = 0;
const toDraft = (o?: IdentifierOverride): IdentifierOverrideDraft => ({
  id: ++nextDraftId,
  identifier: o?.identifier ?? "",
  limit: o ? String(o.limit) : "",
  windowMs: o?.windowMs === undefined ? "" : String(o.windowMs),
  burst: o?.burst === undefined ? "" : String(o.burst),
});

/** "" → absent (the rule's window, the override's limit as burst); other text → Number (NaN is refused by the schema). */
function toInput(draft: IdentifierOverrideDraft): Record<string, unknown> {
  const input: Record<string, unknown> = {
    identifier: draft.identifier.trim(),
    limit: draft.limit.trim() === "" ? undefined : Number(draft.limit),
  };
  if (draft.windowMs.trim() !== "") input.windowMs = Number(draft.windowMs);
  if (draft.burst.trim() !== "") input.burst = Number(draft.burst);
  return input;
}

const overridesPath = (tenantId: string, rule: string) =>
  `/api/admin/tenants/${encodeURIComponent(tenantId)}/rules/${encodeURIComponent(rule)}/overrides`;

function RuleOverrides({ tenantId, rule, canEdit }: { tenantId: string; rule: string; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const queryKey = ["tenant", tenantId, "overrides", rule];
  const stored = useQuery<RuleOverrides, ApiError>({
    queryKey,
    queryFn: () => apiGet<RuleOverrides>(overridesPath(tenantId, rule)),
  });
  const [drafts, setDrafts] = useState<IdentifierOverrideDraft[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [savedCount, setSavedCount] = useState<number | null>(null);

  const save = useMutation({
    mutationFn: (input: unknown) => apiSend<RuleOverrides>("PUT", overridesPath(tenantId, rule), input),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      setDrafts(null);
      setSavedCount(saved.overrides.length);
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) setErrors(error.fieldErrors);
      else setFormError(errorMessage(error));
    },
  });

  if (stored.isPending) return <Loading label="Loading overrides…" />;
  if (!stored.data) return <ErrorState error={stored.error} />;

  const editing = drafts !== null;
  const change = (id: number, patch: Partial<IdentifierOverrideDraft>) =>
    setDrafts((old) => old?.map((d) => (d.id === id ? { ...d, ...patch } : d)) ?? old);

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const input = (drafts ?? []).map(toInput);
    const parsed = identifierOverrideListSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  const title = `Overrides of ${rule}`;
  return (
    <section aria-label={title}>
      <h3>
        <code>{rule}</code>
      </h3>
      {savedCount !== null ? (
        <p role="status" className="hint">
          Saved {savedCount === 1 ? "1 override" : `${savedCount} overrides`}: in force on every instance within a
          second.
        </p>
      ) : null}
      {!editing ? (
        <>
          {stored.data.overrides.length === 0 ? (
            <Empty>No overrides: every identifier gets the rule&apos;s limit.</Empty>
          ) : (
            <table aria-label={title}>
              <thead>
                <tr>
                  <th scope="col">Identifier</th>
                  <th scope="col">Limit</th>
                  <th scope="col">Window (ms)</th>
                  <th scope="col">Burst</th>
                </tr>
              </thead>
              <tbody>
                {stored.data.overrides.map((o) => (
                  <tr key={o.identifier}>
                    <td>
                      <code className="name">{o.identifier}</code>
                    </td>
                    <td>{o.limit.toLocaleString("en-US")}</td>
                    <td>{o.windowMs === undefined ? "the rule's" : o.windowMs.toLocaleString("en-US")}</td>
                    <td>{o.burst === undefined ? "= limit" : o.burst.toLocaleString("en-US")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {canEdit ? (
            <button
              type="button"
              onClick={() => (setSavedCount(null), setErrors({}), setDrafts(stored.data.overrides.map(toDraft)))}
            >
              Edit overrides of {rule}
            </button>
          ) : null}
        </>
      ) : (
        <form onSubmit={submit} noValidate aria-label={title}>
          <FormError message={formError ?? errors[""] ?? null} />
          {drafts.map((d, i) => (
            <div className="form-row" key={d.id} role="group" aria-label={`Override ${i + 1}`}>
              <TextField
                id={`ov-${rule}-${d.id}-identifier`}
                label="Identifier"
                value={d.identifier}
                placeholder="acme or enterprise:*"
                spellCheck={false}
                autoComplete="off"
                error={errors[`${i}.identifier`]}
                onChange={(e) => change(d.id, { identifier: e.target.value })}
              />
              <TextField
                id={`ov-${rule}-${d.id}-limit`}
                label="Limit"
                inputMode="numeric"
                value={d.limit}
                error={errors[`${i}.limit`]}
                onChange={(e) => change(d.id, { limit: e.target.value })}
              />
              <TextField
                id={`ov-${rule}-${d.id}-window`}
                label="Window (ms)"
                inputMode="numeric"
                value={d.windowMs}
                placeholder="the rule's"
                error={errors[`${i}.windowMs`]}
                onChange={(e) => change(d.id, { windowMs: e.target.value })}
              />
              <TextField
                id={`ov-${rule}-${d.id}-burst`}
                label="Burst"
                inputMode="numeric"
                value={d.burst}
                placeholder="= limit"
                error={errors[`${i}.burst`]}
                onChange={(e) => change(d.id, { burst: e.target.value })}
              />
              <button
                type="button"
                className="button-quiet"
                onClick={() => setDrafts(drafts.filter((x) => x.id !== d.id))}
                aria-label={`Remove override ${i + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          <div className="form-actions">
            <button type="button" onClick={() => setDrafts([...drafts, toDraft()])}>
              Add override
            </button>
            <SubmitButton pending={save.isPending} pendingLabel="Saving…">
              Save overrides
            </SubmitButton>
            <button
              type="button"
              className="button-quiet"
              onClick={() => (setDrafts(null), setErrors({}), setFormError(null))}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

export function IdentifierOverridesCard({ tenantId, canEdit }: { tenantId: string; canEdit: boolean }) {
  const rules = useRules({ kind: "tenant", tenantId });
  const identifierRules = (rules.data ?? []).filter((r) => r.scope === "identifier").map((r) => r.name);
  if (identifierRules.length === 0) return null;
  return (
    <section className="card" aria-labelledby="overrides-heading">
      <div className="card-header">
        <h2 id="overrides-heading">Identifier overrides</h2>
      </div>
      <p className="hint">
        Per-identifier limits for <code>POST /api/v1/check</code>: an exact identifier beats the longest matching prefix
        (<code>enterprise:*</code>), which beats the rule.
      </p>
      {identifierRules.map((rule) => (
        <RuleOverrides key={rule} tenantId={tenantId} rule={rule} canEdit={canEdit} />
      ))}
    </section>
  );
}
