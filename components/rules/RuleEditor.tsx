"use client";
/**
 * The rule editor: shows an owner's rule list (a tenant's rules or a key's overrides) and, for
 * admins, edits the whole list at once: add, change, remove, shadow toggle. Save validates with
 * the very schema the PUT route runs; an invalid list is never sent, and a 422 from the server is
 * placed on the same fields. The PUT answers only after this instance applied the rules and
 * announced them to the others, so a 200 means "in force everywhere", and the editor says so.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { ApiError, apiGet, apiSend } from "@/components/api/apiClient";
import { useIsAdmin } from "@/components/api/useSession";
import { Empty, ErrorState, Loading, errorMessage } from "@/components/shell/PageState";
import type { Rule, RuleInput } from "@/lib/rules/ruleSchema";
import { draftFromRule, emptyDraft, type RuleDraft } from "./ruleDraft";
import { NO_ERRORS, hasErrors, placeFieldErrors, validateDrafts, type EditorErrors } from "./ruleErrors";
import { RuleFieldset } from "./RuleFieldset";
import { RuleList } from "./RuleList";
import { rulesPath, rulesQueryKey, scopesFor, type RuleOwner } from "./ruleOwner";
import styles from "./RuleEditor.module.css";

interface SaveRequest {
  drafts: RuleDraft[];
  rules: RuleInput[];
}

/** Query keys under which the owner's other views live (a key's effective rules and quota). */
function ownerQueryPrefix(owner: RuleOwner): readonly unknown[] {
  return owner.kind === "tenant" ? ["tenant", owner.tenantId] : ["key", owner.keyId];
}

export function RuleEditor({
  owner,
  heading,
  description,
  emptyText,
  readOnlyReason,
}: {
  owner: RuleOwner;
  heading: string;
  description?: ReactNode;
  emptyText: string;
  /** Why this list cannot be edited (a revoked key); admins then see no controls either. */
  readOnlyReason?: string;
}) {
  const isAdmin = useIsAdmin();
  const canEdit = isAdmin && !readOnlyReason;
  const queryClient = useQueryClient();
  const queryKey = rulesQueryKey(owner);
  const rules = useQuery({
    queryKey,
    queryFn: () => apiGet<Rule[]>(rulesPath(owner)),
    refetchInterval: 2000,
    placeholderData: keepPreviousData,
  });

  const [drafts, setDrafts] = useState<RuleDraft[] | null>(null);
  const [baseline, setBaseline] = useState<string>("");
  const [errors, setErrors] = useState<EditorErrors>(NO_ERRORS);
  const [attempted, setAttempted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ count: number; at: Date } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const save = useMutation({
    mutationFn: (request: SaveRequest) => apiSend<Rule[]>("PUT", rulesPath(owner), request.rules),
    onSuccess: (savedRules) => {
      queryClient.setQueryData(queryKey, savedRules);
      void queryClient.invalidateQueries({ queryKey: ownerQueryPrefix(owner) });
      setDrafts(null);
      setErrors(NO_ERRORS);
      setSaved({ count: savedRules.length, at: new Date() });
    },
    onError: (error, request) => {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.fieldErrors).length > 0) {
        setErrors(placeFieldErrors(request.drafts, error.fieldErrors));
        setFormError(`The server refused the rules: ${error.detail}`);
      } else {
        setFormError(errorMessage(error));
      }
    },
  });

  // After a refused save, take the operator to the first field that needs attention.
  useEffect(() => {
    if (hasErrors(errors)) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  function startEditing() {
    const current = rules.data ?? [];
    setDrafts(current.map(draftFromRule));
    setBaseline(JSON.stringify(current));
    setErrors(NO_ERRORS);
    setAttempted(false);
    setFormError(null);
    setSaved(null);
  }

  function cancelEditing() {
    setDrafts(null);
    setErrors(NO_ERRORS);
    setFormError(null);
  }

  function update(next: RuleDraft[]) {
    setDrafts(next);
    // Once a save was refused, errors follow the typing, so a fixed field clears at once.
    if (attempted) {
      const result = validateDrafts(owner, next);
      setErrors(result.ok ? NO_ERRORS : result.errors);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!drafts) return;
    setAttempted(true);
    setFormError(null);
    const result = validateDrafts(owner, drafts);
    if (!result.ok) {
      setErrors(result.errors);
      setFormError("Nothing was saved: fix the fields marked below.");
      return;
    }
    setErrors(NO_ERRORS);
    save.mutate({ drafts, rules: result.rules });
  }

  const changedElsewhere = drafts !== null && rules.data !== undefined && JSON.stringify(rules.data) !== baseline;
  const headingId = `${owner.kind}-rules-heading`;

  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId}>{heading}</h2>
        {canEdit && drafts === null ? (
          <button type="button" onClick={startEditing} disabled={rules.data === undefined}>
            Edit rules
          </button>
        ) : null}
      </div>
      {description ? <p className="hint">{description}</p> : null}
      {readOnlyReason ? <p className="notice notice-warn">{readOnlyReason}</p> : null}

      {saved ? (
        <p className="notice notice-ok" role="status">
          Saved {saved.count === 1 ? "1 rule" : `${saved.count} rules`} at {saved.at.toLocaleTimeString("en-GB")}. The new rules are in force on every
          instance: this one applied them before answering and announced the change to the others.
        </p>
      ) : null}

      {drafts !== null ? (
        <form ref={formRef} onSubmit={submit} noValidate className={styles.editor} aria-label={heading}>
          {changedElsewhere ? (
            <p className="notice notice-warn" role="status">
              These rules were changed elsewhere since you started editing. Saving replaces them with the list below.
            </p>
          ) : null}
          {formError ? (
            <p className="form-error" role="alert">
              {formError}
            </p>
          ) : null}
          {errors.list.map((message) => (
            <p key={message} className="form-error">
              {message}
            </p>
          ))}
          {drafts.length === 0 ? <Empty>No rules in this list. Saving an empty list removes every rule.</Empty> : null}
          {drafts.map((draft, index) => (
            <RuleFieldset
              key={draft.draftId}
              draft={draft}
              index={index}
              errors={errors.rules[draft.draftId]}
              scopes={scopesFor(owner)}
              onChange={(patch) => update(drafts.map((d) => (d.draftId === draft.draftId ? { ...d, ...patch } : d)))}
              onRemove={() => update(drafts.filter((d) => d.draftId !== draft.draftId))}
            />
          ))}
          <div className={styles.actions}>
            <button type="button" onClick={() => update([...drafts, emptyDraft()])}>
              Add rule
            </button>
            <span className={styles.spacer} />
            <button type="button" className="button-quiet" onClick={cancelEditing} disabled={save.isPending}>
              Cancel
            </button>
            <button type="submit" className="button-primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save rules"}
            </button>
          </div>
        </form>
      ) : rules.isPending ? (
        <Loading label="Loading rules…" />
      ) : rules.error && rules.data === undefined ? (
        <ErrorState error={rules.error} />
      ) : rules.data && rules.data.length > 0 ? (
        <RuleList rules={rules.data} caption={heading} />
      ) : (
        <Empty>{emptyText}</Empty>
      )}
      {drafts === null && rules.error && rules.data !== undefined ? <ErrorState error={rules.error} /> : null}
    </section>
  );
}
