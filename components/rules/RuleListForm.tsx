"use client";
/**
 * The form of a whole rule list: a compact table (one row per rule, its drawer under it), the
 * algorithm help once and collapsed, and a save bar that stays in view (sticky) with "Add rule",
 * what the list changes so far, and the caller's own buttons (save, run a simulation, …). It
 * holds no draft state: drafts and errors come from useRuleDrafts; only which drawers are open
 * is its own. A rule with errors opens its drawer, and the first marked field takes the focus.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Empty } from "@/components/shell/PageState";
import type { Scope } from "@/lib/limiter/types";
import type { Rule } from "@/lib/policy/rules/ruleSchema";
import { AlgorithmHelp } from "./AlgorithmPicker";
import { draftToInput, emptyDraft, type RuleDraft } from "./ruleDraft";
import { describeRuleChanges } from "./ruleChanges";
import { hasErrors, type EditorErrors } from "./ruleErrors";
import { RuleRow } from "./RuleRow";
import { TryPathBox } from "./TryPathBox";
import { gatewayPathWarning } from "@/lib/policy/rules/gatewayPaths";
import styles from "./RuleEditor.module.css";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

export function RuleListForm({
  label,
  drafts,
  errors,
  scopes,
  formError,
  notices,
  emptyText,
  baseline,
  gatewayUpstream = false,
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
  /** The rules the list started from: the save bar says what the drafts change against them. */
  baseline: readonly Rule[];
  /**
   * The tenant has a gateway upstream: a path under /api/v1 other than echo's or check's is
   * warned about (it never matches a gateway request; accepted all the same, lib/policy/rules/gatewayPaths.ts).
   */
  gatewayUpstream?: boolean;
  onChange: (next: RuleDraft[]) => void;
  onSubmit: () => void;
  /** The buttons of the save bar; the submit button among them. */
  children: ReactNode;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  // Open drawers. A rule with errors opens its drawer, and it stays open while they are fixed.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [seenErrors, setSeenErrors] = useState(errors);
  if (errors !== seenErrors) {
    setSeenErrors(errors);
    const failing = Object.keys(errors.rules).filter((id) => Object.keys(errors.rules[id] ?? {}).length > 0);
    if (failing.some((id) => !open.has(id))) setOpen(new Set([...open, ...failing]));
  }

  useEffect(() => {
    // Errors shown while a field is being typed in (checked as typed) leave the focus there.
    const active = document.activeElement;
    if (active && formRef.current?.contains(active) && active.matches("input, select, textarea")) return;
    const first = hasErrors(errors) ? formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') : null;
    // Scrolled with its scroll margin (RuleEditor.module.css): the field and its error clear the sticky save bar.
    first?.focus({ preventScroll: true });
    first?.scrollIntoView({ block: "nearest" });
  }, [errors]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }

  function toggle(draftId: string) {
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(draftId)) next.add(draftId);
      return next;
    });
  }

  function addRule() {
    const draft = emptyDraft(scopes[0]);
    onChange([...drafts, draft]);
    setOpen((was) => new Set([...was, draft.draftId]));
  }

  const changes = describeRuleChanges(baseline, drafts.map(draftToInput));
  const pathWarnings = gatewayUpstream
    ? drafts.flatMap((d, i) => {
        const warning = gatewayPathWarning(d.path.trim(), d.pathAnyCase);
        return warning ? [{ draftId: d.draftId, name: d.name.trim() || `Rule ${i + 1}`, warning }] : [];
      })
    : [];

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
      <AlgorithmHelp />
      {drafts.length === 0 ? (
        <Empty>{emptyText}</Empty>
      ) : (
        <ScrollRegion label={`${label}: rules being edited`}>
          <table className={styles.ruleTable} aria-label={`${label}: rules being edited`}>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Limit</th>
                <th scope="col">Algorithm</th>
                <th scope="col">Scope</th>
                <th scope="col">Applies to</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {drafts.map((draft, index) => (
                <RuleRow
                  key={draft.draftId}
                  draft={draft}
                  index={index}
                  errors={errors.rules[draft.draftId]}
                  scopes={scopes}
                  open={open.has(draft.draftId)}
                  onToggle={() => toggle(draft.draftId)}
                  onChange={(patch) =>
                    onChange(drafts.map((d) => (d.draftId === draft.draftId ? { ...d, ...patch } : d)))
                  }
                  onRemove={() => onChange(drafts.filter((d) => d.draftId !== draft.draftId))}
                />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {pathWarnings.map((w) => (
        <p key={w.draftId} className="notice notice-warn" role="status" data-testid="gateway-path-warning">
          {w.name}: {w.warning}
        </p>
      ))}
      <TryPathBox drafts={drafts} />
      <div className={styles.saveBar} role="group" aria-label="Save bar">
        <button type="button" onClick={addRule}>
          Add rule
        </button>
        <p className={styles.changes} aria-live="polite" data-testid="rule-changes">
          {changes.length === 0
            ? "No changes yet."
            : `${changes.length === 1 ? "1 change" : `${changes.length} changes`}: ${changes.join("; ")}`}
        </p>
        {children}
      </div>
    </form>
  );
}
