"use client";
/**
 * The rule editor: shows an owner's rule list (a tenant's rules or a key's overrides) and, for
 * admins, edits the whole list at once: add, change, remove, shadow toggle. Save validates with
 * the very schema the PUT route runs; an invalid list is never sent, and a 422 from the server is
 * placed on the same fields. The PUT answers only after this instance applied the rules and
 * announced them to the others, so a 200 means "in force everywhere", and the editor says so.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type ReactNode } from "react";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { useIsAdmin } from "@/components/api/useSession";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import type { Rule, RuleInput } from "@/lib/policy/rules/ruleSchema";
import type { RuleDraft } from "./ruleDraft";
import { RuleList } from "./RuleList";
import { RuleListForm } from "./RuleListForm";
import { ownerQueryPrefix, rulesPath, rulesQueryKey, scopesFor, type RuleOwner } from "./ruleOwner";
import { useRules } from "./ruleQueries";
import { useRuleDrafts } from "./useRuleDrafts";

interface SaveRequest {
  drafts: RuleDraft[];
  rules: RuleInput[];
}

export function RuleEditor({
  owner,
  heading,
  description,
  emptyText,
  readOnlyReason,
  gatewayUpstream = false,
}: {
  owner: RuleOwner;
  heading: string;
  description?: ReactNode;
  emptyText: string;
  /** Why this list cannot be edited (a revoked key); admins then see no controls either. */
  readOnlyReason?: string;
  /** The tenant has a gateway upstream: paths that never match a gateway request are warned about. */
  gatewayUpstream?: boolean;
}) {
  const isAdmin = useIsAdmin();
  const canEdit = isAdmin && !readOnlyReason;
  const queryClient = useQueryClient();
  const queryKey = rulesQueryKey(owner);
  const rules = useRules(owner);

  const editing = useRuleDrafts(owner);
  const drafts = editing.drafts;
  const [baseline, setBaseline] = useState<string>("");
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ count: number; at: Date } | null>(null);

  const save = useMutation({
    mutationFn: (request: SaveRequest) => apiSend<Rule[]>("PUT", rulesPath(owner), request.rules),
    onSuccess: (savedRules) => {
      queryClient.setQueryData(queryKey, savedRules);
      void queryClient.invalidateQueries({ queryKey: ownerQueryPrefix(owner) });
      editing.load(null);
      setSaved({ count: savedRules.length, at: new Date() });
    },
    onError: (error, request) => {
      setFormError(
        editing.showServerErrors(error, request.drafts)
          ? `The server refused the rules: ${errorMessage(error)}`
          : errorMessage(error),
      );
    },
  });

  function startEditing() {
    const current = rules.data ?? [];
    editing.load(current);
    setBaseline(JSON.stringify(current));
    setFormError(null);
    setSaved(null);
  }

  function cancelEditing() {
    editing.load(null);
    setFormError(null);
  }

  function submit() {
    if (!drafts) return;
    setFormError(null);
    const checked = editing.check();
    if (!checked) {
      setFormError("Nothing was saved: fix the fields marked below.");
      return;
    }
    save.mutate({ drafts, rules: checked });
  }

  const baselineRules = useMemo(() => (baseline ? (JSON.parse(baseline) as Rule[]) : []), [baseline]);
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
          Saved {saved.count === 1 ? "1 rule" : `${saved.count} rules`} at {saved.at.toLocaleTimeString("en-GB")}. The
          new rules are in force on every instance: this one applied them before answering and announced the change to
          the others.
        </p>
      ) : null}

      {drafts !== null ? (
        <RuleListForm
          label={heading}
          drafts={drafts}
          errors={editing.errors}
          scopes={scopesFor(owner)}
          formError={formError}
          notices={
            changedElsewhere ? (
              <p className="notice notice-warn" role="status">
                These rules were changed elsewhere since you started editing. Saving replaces them with the list below.
              </p>
            ) : null
          }
          emptyText="No rules in this list. Saving an empty list removes every rule."
          baseline={baselineRules}
          gatewayUpstream={gatewayUpstream}
          onChange={editing.update}
          onSubmit={submit}
        >
          <button type="button" className="button-quiet" onClick={cancelEditing} disabled={save.isPending}>
            Cancel
          </button>
          <button type="submit" className="button-primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save rules"}
          </button>
        </RuleListForm>
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
