"use client";
/**
 * One rule of the editor's table: a summary row (name and mode, "120 per min", algorithm, scope,
 * what it applies to, how many fields need fixing) with the buttons that open its drawer and
 * remove it, and, when open, the drawer with every field (RuleFieldset).
 */
import type { Scope } from "@/lib/limiter/types";
import { ALGORITHM_GUIDE } from "./algorithmGuide";
import { formatLimit, parseDuration, perDuration } from "./duration";
import { descriptorOfDraft, type RuleDraft } from "./ruleDraft";
import { descriptorText } from "./envoyDescriptor";
import type { RuleField } from "./ruleFieldLabels";
import { RuleFieldset } from "./RuleFieldset";
import styles from "./RuleEditor.module.css";

function rateText(draft: RuleDraft): string {
  const windowMs = parseDuration(draft.window);
  const limit = draft.limit.trim();
  if (!limit || windowMs === null) return "—";
  const burst = ALGORITHM_GUIDE[draft.algorithm].usesBurst && draft.burst.trim() ? `, burst ${draft.burst.trim()}` : "";
  const penalty = draft.penalty.trim() ? `, penalty ${draft.penalty.trim()}` : "";
  // A descriptor rule sends no chargeOn (draftToInput): classes left checked from another scope are not shown.
  const byResponse =
    draft.scope !== "descriptor" && draft.chargeOn.length > 0 ? `, ${draft.chargeOn.join("/")} only` : "";
  const shown = /^\d+$/.test(limit) ? formatLimit(Number(limit), windowMs) : `${limit} ${perDuration(windowMs)}`;
  return `${shown}${burst}${penalty}${byResponse}`;
}

function appliesTo(draft: RuleDraft): string {
  if (draft.scope === "descriptor") return `Envoy: ${descriptorText(descriptorOfDraft(draft.descriptor)) || "—"}`;
  const methods = draft.methods.join(", ");
  const path = draft.path.trim() + (draft.path.trim() && draft.pathAnyCase ? " (any case)" : "");
  return [methods, path].filter(Boolean).join(" ") || "every request";
}

export function RuleRow({
  draft,
  index,
  errors,
  scopes,
  open,
  onToggle,
  onChange,
  onRemove,
}: {
  draft: RuleDraft;
  index: number;
  errors?: Partial<Record<RuleField, string>>;
  scopes: readonly Scope[];
  open: boolean;
  onToggle: () => void;
  onChange: (patch: Partial<RuleDraft>) => void;
  onRemove: () => void;
}) {
  const name = draft.name.trim();
  const title = `Rule ${index + 1}${name ? `: ${name}` : ""}`;
  const drawerId = `${draft.draftId}-drawer`;
  const problems = Object.keys(errors ?? {}).length;
  return (
    <>
      <tr className={`${styles.ruleRow} ${problems > 0 ? styles.invalidRow : ""}`} data-rule={name}>
        <th scope="row">
          <code className="name">{name || "new rule"}</code>{" "}
          {draft.mode === "shadow" ? <span className="badge">shadow</span> : null}
          {problems > 0 ? (
            <span className={styles.problemBadge}>
              {problems === 1 ? "1 field to fix" : `${problems} fields to fix`}
            </span>
          ) : null}
        </th>
        <td>{rateText(draft)}</td>
        <td>{ALGORITHM_GUIDE[draft.algorithm].title}</td>
        <td>{draft.scope}</td>
        <td>{appliesTo(draft)}</td>
        <td className={styles.rowActions}>
          <button
            type="button"
            className="button-quiet"
            aria-expanded={open}
            aria-controls={drawerId}
            onClick={onToggle}
            aria-label={`${open ? "Close" : "Edit"} ${title}`}
          >
            {open ? "Close" : "Edit"}
          </button>
          <button type="button" className="button-quiet" onClick={onRemove} aria-label={`Remove ${title}`}>
            Remove
          </button>
        </td>
      </tr>
      {open ? (
        <tr id={drawerId} className={styles.drawerRow}>
          <td colSpan={6}>
            <RuleFieldset draft={draft} title={title} errors={errors} scopes={scopes} onChange={onChange} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
