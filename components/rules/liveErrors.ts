/**
 * Checking a rule list as it is typed (issue 31, point 8): the owner's schema (the one its PUT
 * route runs) runs at every change, and its messages are shown for the fields the operator has
 * changed so far ("touched"), so a half-filled new rule is not covered in errors before its
 * fields are reached; Save shows them all. Pure.
 */
import type { RuleDraft } from "./ruleDraft";
import type { EditorErrors } from "./ruleErrors";
import type { RuleField } from "./ruleFieldLabels";

/** The error field (the schema's path) each draft field feeds. */
const FIELD_OF: Partial<Record<keyof RuleDraft, RuleField>> = {
  name: "name",
  scope: "scope",
  scopeKey: "scopeKey",
  onMissing: "onMissing",
  algorithm: "algorithm",
  limit: "limit",
  window: "windowMs",
  burst: "burst",
  cost: "cost",
  penalty: "blockMs",
  methods: "match.methods",
  path: "match.path",
  pathAnyCase: "match.caseInsensitive",
  chargeOn: "chargeOn",
  failMode: "failMode",
  mode: "mode",
  descriptor: "match.descriptor",
};

export type Touched = Record<string, ReadonlySet<RuleField>>;

/** `touched` with the fields `next` changed against `previous` (matched by draftId) added. */
export function touchFields(touched: Touched, previous: readonly RuleDraft[], next: readonly RuleDraft[]): Touched {
  const before = new Map(previous.map((d) => [d.draftId, d]));
  const out: Touched = { ...touched };
  for (const draft of next) {
    const was = before.get(draft.draftId);
    if (!was) continue;
    const fields = new Set(out[draft.draftId] ?? []);
    for (const [key, field] of Object.entries(FIELD_OF) as [keyof RuleDraft, RuleField][]) {
      if (JSON.stringify(was[key]) !== JSON.stringify(draft[key])) fields.add(field);
    }
    if (fields.size > 0) out[draft.draftId] = fields;
  }
  return out;
}

/** The errors of the touched fields only (list-wide messages and whole-rule ones are kept). */
export function touchedErrors(errors: EditorErrors, touched: Touched): EditorErrors {
  const rules: EditorErrors["rules"] = {};
  for (const [draftId, fields] of Object.entries(errors.rules)) {
    const kept = Object.fromEntries(
      Object.entries(fields).filter(([field]) => field === "rule" || touched[draftId]?.has(field as RuleField)),
    );
    if (Object.keys(kept).length > 0) rules[draftId] = kept;
  }
  return { list: errors.list, rules };
}
