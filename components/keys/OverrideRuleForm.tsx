"use client";
/**
 * "Override this rule" for one of a key's effective rules: its limit and window, prefilled from the
 * rule in force, saved as a key override of the same name (ruleOverride.ts `withOverride`), through
 * the same PUT as the overrides editor and checked first with the route's own schema. The PUT
 * answers once the change is in force everywhere, and the form says so.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { TextField } from "@/components/forms/TextField";
import { DURATION_HELP, formatLimit, parseDuration, perWindow } from "@/components/rules/duration";
import { plainMessage } from "@/components/rules/plainErrors";
import { ownerQueryPrefix, rulesPath, rulesQueryKey, type RuleOwner } from "@/components/rules/ruleOwner";
import { keyRulesSchema } from "@/lib/control/admin/schemas";
import type { Rule, RuleInput } from "@/lib/policy/rules/ruleSchema";
import type { KeyDetails } from "./keyTypes";
import { overrideDraft, withOverride } from "./ruleOverride";

type EffectiveRule = KeyDetails["rules"]["effective"][number];

export function OverrideRuleForm({
  keyId,
  rule,
  overrides,
  onClose,
  onSaved,
}: {
  keyId: string;
  rule: EffectiveRule;
  overrides: Rule[];
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const owner: RuleOwner = { kind: "key", keyId };
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => overrideDraft(rule));
  const [errors, setErrors] = useState<{ limit?: string; window?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (list: RuleInput[]) => apiSend<Rule[]>("PUT", rulesPath(owner), list),
    onSuccess: (saved) => {
      queryClient.setQueryData(rulesQueryKey(owner), saved);
      void queryClient.invalidateQueries({ queryKey: ownerQueryPrefix(owner) });
      const now = saved.find((r) => r.name === rule.name);
      onSaved(
        now ? `${rule.name} is now ${formatLimit(now.limit, now)} for this key, in force on every instance.` : "Saved.",
      );
    },
    onError: (error) => setFormError(errorMessage(error)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const limit = /^\d+$/.test(draft.limit.trim()) ? Number(draft.limit.trim()) : NaN;
    const windowMs = rule.period ? undefined : parseDuration(draft.window);
    const next: { limit?: string; window?: string } = {};
    if (!Number.isFinite(limit)) next.limit = "Limit must be a whole number";
    if (windowMs === null) next.window = `Window: write ${DURATION_HELP}`;
    if (next.limit || next.window) {
      setErrors(next);
      return;
    }
    const list = withOverride(overrides, rule, limit, windowMs ?? undefined);
    const parsed = keyRulesSchema.safeParse(list);
    if (!parsed.success) {
      const at = list.findIndex((r) => r.name === rule.name);
      const mine = parsed.error.issues.filter((i) => i.path[0] === at);
      const field = (name: string) => mine.find((i) => i.path[1] === name)?.message;
      const limitError = field("limit") ?? field("burst");
      const windowError = field("windowMs");
      setErrors({
        limit: limitError && plainMessage(limitError),
        window: windowError && plainMessage(windowError),
      });
      if (!limitError && !windowError) setFormError(plainMessage(parsed.error.issues[0]?.message ?? "Invalid rule"));
      return;
    }
    setErrors({});
    save.mutate(list);
  }

  const id = `override-${rule.name}`;
  return (
    <form onSubmit={submit} noValidate aria-label={`Override ${rule.name} for this key`} className="card-inset">
      <p>
        Override <code>{rule.name}</code> for this key: a key override of the same name replaces the tenant rule for
        this key alone. Everything but the limit and the window stays as it is.
      </p>
      <FormError message={formError} />
      <div className="form-row">
        <TextField
          id={`${id}-limit`}
          label="Limit"
          inputMode="numeric"
          value={draft.limit}
          onChange={(e) => setDraft({ ...draft, limit: e.target.value })}
          error={errors.limit}
        />
        {rule.period ? (
          <p className="muted">Counted per {perWindow(rule).replace("per ", "")}: the period stays as it is.</p>
        ) : (
          <TextField
            id={`${id}-window`}
            label={rule.algorithm === "token_bucket" || rule.algorithm === "gcra" ? "Refill period" : "Window"}
            value={draft.window}
            onChange={(e) => setDraft({ ...draft, window: e.target.value })}
            error={errors.window}
            hint={DURATION_HELP}
          />
        )}
        <div className="form-actions">
          <SubmitButton pending={save.isPending} pendingLabel="Saving…">
            Save override
          </SubmitButton>
          <button type="button" onClick={onClose} disabled={save.isPending}>
            Cancel
          </button>
        </div>
      </div>
    </form>
  );
}
