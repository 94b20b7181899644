"use client";
/**
 * The form of a whole rule list: its messages, one fieldset per rule, "Add rule", and the
 * caller's own buttons (save, run a simulation, …). It holds no state: the drafts and their
 * errors come from useRuleDrafts. After a refused check it takes the operator to the first field
 * that needs attention.
 */
import { useEffect, useRef, type FormEvent, type ReactNode } from "react";
import { Empty } from "@/components/shell/PageState";
import type { Scope } from "@/lib/limiter/types";
import { emptyDraft, type RuleDraft } from "./ruleDraft";
import { hasErrors, type EditorErrors } from "./ruleErrors";
import { RuleFieldset } from "./RuleFieldset";
import styles from "./RuleEditor.module.css";

export function RuleListForm({
  label,
  drafts,
  errors,
  scopes,
  formError,
  notices,
  emptyText,
  onChange,
  onSubmit,
  children,
}: {
  /** The form's accessible name. */
  label: string;
  drafts: RuleDraft[];
  errors: EditorErrors;
  scopes: readonly Scope[];
  formError: string | null;
  /** Shown above the error, e.g. "changed elsewhere". */
  notices?: ReactNode;
  emptyText: string;
  onChange: (next: RuleDraft[]) => void;
  onSubmit: () => void;
  /** The buttons at the right of "Add rule"; the submit button among them. */
  children: ReactNode;
}) {
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (hasErrors(errors)) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className={styles.editor} aria-label={label}>
      {notices}
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
      {drafts.length === 0 ? <Empty>{emptyText}</Empty> : null}
      {drafts.map((draft, index) => (
        <RuleFieldset
          key={draft.draftId}
          draft={draft}
          index={index}
          errors={errors.rules[draft.draftId]}
          scopes={scopes}
          onChange={(patch) => onChange(drafts.map((d) => (d.draftId === draft.draftId ? { ...d, ...patch } : d)))}
          onRemove={() => onChange(drafts.filter((d) => d.draftId !== draft.draftId))}
        />
      ))}
      <div className={styles.actions}>
        <button type="button" onClick={() => onChange([...drafts, emptyDraft()])}>
          Add rule
        </button>
        <span className={styles.spacer} />
        {children}
      </div>
    </form>
  );
}
