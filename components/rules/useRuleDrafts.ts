"use client";
/**
 * A rule list being edited, without any notion of where it goes: the drafts, their per-field
 * errors, and the checks of the owner's schema (the one its PUT route runs). Used by the rule
 * editor (which saves the list) and by the simulator (which replays it). The schema runs at every
 * change: a field's message shows as soon as that field is changed (liveErrors.ts) and clears
 * once it is fixed; after a Save (a check) every message shows. A server's 422 is placed on the
 * drafts it was computed for with `showServerErrors`.
 */
import { useState } from "react";
import type { ZodType } from "zod";
import { ApiError } from "@/components/api/apiClient";
import type { Rule, RuleInput } from "@/lib/policy/rules/ruleSchema";
import { draftFromRule, type RuleDraft } from "./ruleDraft";
import { NO_ERRORS, placeFieldErrors, validateBody, validateDrafts, type EditorErrors } from "./ruleErrors";
import { touchedErrors, touchFields, type Touched } from "./liveErrors";
import { ruleListSchemaFor, type RuleOwner } from "./ruleOwner";

export interface RuleDrafts {
  drafts: RuleDraft[] | null;
  errors: EditorErrors;
  /** Starts editing the given rules (or stops, with null); forgets earlier errors. */
  load: (rules: Rule[] | null) => void;
  update: (next: RuleDraft[]) => void;
  /** Runs the owner's schema over the drafts: the list to send, or null (the errors are then shown). */
  check: () => RuleInput[] | null;
  /** The same for a body holding the list (`toBody`), checked with its route's schema. */
  checkBody: <B>(schema: ZodType, toBody: (rules: RuleInput[]) => B) => B | null;
  /**
   * Places a 422's field errors on `sent` (the drafts the request was built from) and answers
   * true; answers false for any other failure, which the caller reports its own way.
   */
  showServerErrors: (error: unknown, sent: RuleDraft[]) => boolean;
  clearErrors: () => void;
}

/** `initial`: rules to start editing at once (the simulator's candidate starts as the current rules). */
export function useRuleDrafts(owner: RuleOwner, initial: Rule[] | null = null): RuleDrafts {
  const [drafts, setDrafts] = useState<RuleDraft[] | null>(() => initial?.map(draftFromRule) ?? null);
  const [errors, setErrors] = useState<EditorErrors>(NO_ERRORS);
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<Touched>({});

  function checkBody<B>(schema: ZodType, toBody: (rules: RuleInput[]) => B): B | null {
    if (!drafts) return null;
    setAttempted(true);
    const result = validateBody(schema, drafts, toBody);
    setErrors(result.ok ? NO_ERRORS : result.errors);
    return result.ok ? result.body : null;
  }

  return {
    drafts,
    errors,
    load(rules) {
      setDrafts(rules === null ? null : rules.map(draftFromRule));
      setErrors(NO_ERRORS);
      setAttempted(false);
      setTouched({});
    },
    update(next) {
      const nowTouched = touchFields(touched, drafts ?? [], next);
      setDrafts(next);
      setTouched(nowTouched);
      const result = validateDrafts(owner, next);
      setErrors(result.ok ? NO_ERRORS : attempted ? result.errors : touchedErrors(result.errors, nowTouched));
    },
    check: () => checkBody(ruleListSchemaFor(owner), (rules) => rules),
    checkBody,
    showServerErrors(error, sent) {
      if (!(error instanceof ApiError) || error.status !== 422 || Object.keys(error.fieldErrors).length === 0)
        return false;
      setErrors(placeFieldErrors(sent, error.fieldErrors));
      return true;
    },
    clearErrors() {
      setErrors(NO_ERRORS);
    },
  };
}
