/**
 * Validation of the whole list with the owner's schema, and the placing of per-field messages,
 * whether they come from that schema in the browser or from the server's 422 (`errors` keyed by
 * field path: `0.limit`, `rules.0.match.path`, `""` for the list). Both use the same paths, since
 * both run the same schema. Messages are put in the form's words (plainErrors.ts).
 */
import type { ZodType } from "zod";
import { fieldErrors } from "@/lib/http/validate";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { plainMessage } from "./plainErrors";
import { draftToInput, type RuleDraft } from "./ruleDraft";
import { FIELD_LABELS, type RuleField } from "./ruleFieldLabels";
import { ruleListSchemaFor, type RuleOwner } from "./ruleOwner";

const FIELDS = new Set<string>(Object.keys(FIELD_LABELS));

export interface EditorErrors {
  /** Messages about the list itself (too many rules, a malformed body). */
  list: string[];
  /** By draftId, then field. */
  rules: Record<string, Partial<Record<RuleField, string>>>;
}

export const NO_ERRORS: EditorErrors = { list: [], rules: {} };

export function hasErrors(errors: EditorErrors): boolean {
  return errors.list.length > 0 || Object.values(errors.rules).some((fields) => Object.keys(fields).length > 0);
}

/** Places messages keyed by field path onto the drafts they were computed for (by index). */
export function placeFieldErrors(drafts: RuleDraft[], messages: Record<string, string | string[]>): EditorErrors {
  const out: EditorErrors = { list: [], rules: {} };
  for (const [path, value] of Object.entries(messages)) {
    const raw = Array.isArray(value) ? value[0] : value;
    if (!raw) continue;
    const message = plainMessage(raw);
    const parts = path === "" ? [] : path.split(".");
    if (parts[0] === "rules") parts.shift();
    const index = parts.length > 0 && /^\d+$/.test(parts[0]!) ? Number(parts.shift()) : undefined;
    const draft = index === undefined ? undefined : drafts[index];
    if (!draft) {
      out.list.push(message);
      continue;
    }
    // match.methods.2 → match.methods: a bad entry is shown on the method group.
    const twoLevel = parts.slice(0, 2).join(".");
    const field: RuleField = FIELDS.has(twoLevel)
      ? (twoLevel as RuleField)
      : FIELDS.has(parts[0] ?? "")
        ? (parts[0] as RuleField)
        : "rule";
    const fields = (out.rules[draft.draftId] ??= {});
    fields[field] ??= message;
  }
  return out;
}

export type BodyValidation<B> = { ok: true; body: B } | { ok: false; errors: EditorErrors };

/**
 * Runs a route's schema over the body built from the drafts (the list itself, or an object
 * holding it under `rules`, like the simulator's). The body is answered as built: the server
 * parses it again.
 */
export function validateBody<B>(
  schema: ZodType,
  drafts: RuleDraft[],
  toBody: (rules: RuleInput[]) => B,
): BodyValidation<B> {
  const body = toBody(drafts.map(draftToInput));
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, body };
  return { ok: false, errors: placeFieldErrors(drafts, fieldErrors(result.error)) };
}

export type DraftValidation = { ok: true; rules: RuleInput[] } | { ok: false; errors: EditorErrors };

/** Runs the owner's schema (the one its PUT route runs) over the whole list. */
export function validateDrafts(owner: RuleOwner, drafts: RuleDraft[]): DraftValidation {
  const result = validateBody(ruleListSchemaFor(owner), drafts, (rules) => rules);
  return result.ok ? { ok: true, rules: result.body } : result;
}
