/**
 * A rule as the form holds it (numbers and the window as typed text: "1 min"), and its
 * conversion to the input of the shared rule schema (the window parsed into milliseconds here, in
 * the form layer, so the API and the schema keep taking `windowMs`). The schema, not the form, decides what is valid: empty or non-numeric text
 * becomes a value the schema refuses with its own message naming the field.
 */
import type { HttpMethod } from "@/lib/http/httpMethods";
import { type DescriptorEntry, type Rule, type RuleInput } from "@/lib/policy/rules/ruleSchema";
import {
  STATUS_CLASSES,
  type Algorithm,
  type FailMode,
  type OnMissing,
  type RuleMode,
  type Scope,
  type StatusClass,
} from "@/lib/limiter/types";
import { ALGORITHM_GUIDE } from "./algorithmGuide";
import { formatDuration, parseDuration } from "./duration";

export interface RuleDraft {
  /** Stable identity for React and for attaching errors; never sent. */
  draftId: string;
  name: string;
  scope: Scope;
  /** Scope header/query: the header or parameter name (sent only for those scopes). */
  scopeKey: string;
  onMissing: OnMissing;
  algorithm: Algorithm;
  limit: string;
  /** A duration as typed ("1 min"); turned into `windowMs` for the schema (unless `period`). */
  window: string;
  /** fixed_window: "" counts per `window`; a calendar period counts per day, week or month instead. */
  period: "" | "day" | "week" | "month";
  /** With `period`: the IANA time zone as typed ("" for UTC). */
  timeZone: string;
  burst: string;
  cost: string;
  /** The penalty as a typed duration ("10 min"); "" for none. Turned into `blockMs`. */
  penalty: string;
  methods: HttpMethod[];
  path: string;
  /** `match.caseInsensitive`: the path compared in any case (for APIs whose router ignores case). */
  pathAnyCase: boolean;
  /** Count by response: the status classes charged; none checked: charged at admission (no chargeOn). */
  chargeOn: StatusClass[];
  failMode: FailMode;
  mode: RuleMode;
  /** Scope descriptor: `match.descriptor` as typed; an empty value counts per value (sent without one). */
  descriptor: DescriptorEntryDraft[];
}

/** One entry of `match.descriptor` in the form: the value as typed, "" for none (counted per value). */
export interface DescriptorEntryDraft {
  key: string;
  value: string;
}

let nextDraftId = 0;
const newDraftId = () => `rule-${++nextDraftId}`;

export function emptyDraft(scope: Scope = "key"): RuleDraft {
  return {
    draftId: newDraftId(),
    name: "",
    scope,
    scopeKey: "",
    onMissing: "skip",
    algorithm: "sliding_window",
    limit: "",
    window: "1 min",
    period: "",
    timeZone: "",
    burst: "",
    cost: "1",
    penalty: "",
    methods: [],
    path: "",
    pathAnyCase: false,
    chargeOn: [],
    failMode: "open",
    mode: "enforce",
    descriptor: [],
  };
}

export function draftFromRule(rule: Rule): RuleDraft {
  return {
    draftId: newDraftId(),
    name: rule.name,
    scope: rule.scope,
    scopeKey: rule.scopeKey ?? "",
    onMissing: rule.onMissing ?? "skip",
    algorithm: rule.algorithm,
    limit: String(rule.limit),
    window: rule.windowMs === undefined ? "1 min" : formatDuration(rule.windowMs),
    period: rule.period ?? "",
    timeZone: rule.period && rule.timeZone !== "UTC" ? (rule.timeZone ?? "") : "",
    // The window algorithms store burst = limit; the form shows burst only where it means something.
    burst: ALGORITHM_GUIDE[rule.algorithm].usesBurst ? String(rule.burst) : "",
    cost: String(rule.cost),
    penalty: rule.blockMs > 0 ? formatDuration(rule.blockMs) : "",
    methods: [...(rule.match.methods ?? [])],
    path: rule.match.path ?? "",
    pathAnyCase: rule.match.caseInsensitive === true,
    chargeOn: [...(rule.chargeOn ?? [])],
    failMode: rule.failMode,
    mode: rule.mode,
    descriptor: (rule.match.descriptor ?? []).map((entry) => ({ key: entry.key, value: entry.value ?? "" })),
  };
}

/** "" → undefined (the schema's default or "must be a number"); anything else → Number (NaN is refused). */
function numberOrUndefined(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === "" ? undefined : Number(trimmed);
}

/** "" → undefined (the schema says it is required); text that is no duration → NaN (refused as not a number). */
function durationOrUndefined(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  return parseDuration(text) ?? Number.NaN;
}

/** The form's entries as `match.descriptor`: keys trimmed, an empty value left out (counted per value). */
export function descriptorOfDraft(entries: readonly DescriptorEntryDraft[]): DescriptorEntry[] {
  return entries.map(({ key, value }) => (value === "" ? { key: key.trim() } : { key: key.trim(), value }));
}

export function draftToInput(draft: RuleDraft): RuleInput {
  const usesBurst = ALGORITHM_GUIDE[draft.algorithm].usesBurst;
  const path = draft.path.trim();
  const byAttribute = draft.scope === "header" || draft.scope === "query";
  // A descriptor rule matches Envoy's descriptors only: the HTTP match fields it hides are not sent.
  const byDescriptor = draft.scope === "descriptor";
  return {
    name: draft.name.trim(),
    scope: draft.scope,
    // Only the attribute scopes carry these: a hidden leftover must not earn a 422.
    ...(byAttribute ? { scopeKey: draft.scopeKey.trim(), onMissing: draft.onMissing } : {}),
    algorithm: draft.algorithm,
    limit: numberOrUndefined(draft.limit) as number,
    ...(draft.algorithm === "fixed_window" && draft.period !== ""
      ? { period: draft.period, ...(draft.timeZone.trim() ? { timeZone: draft.timeZone.trim() } : {}) }
      : { windowMs: durationOrUndefined(draft.window) as number }),
    burst: usesBurst ? numberOrUndefined(draft.burst) : undefined,
    cost: numberOrUndefined(draft.cost),
    // Empty: the schema's default, no penalty.
    blockMs: durationOrUndefined(draft.penalty),
    match: byDescriptor
      ? { descriptor: descriptorOfDraft(draft.descriptor) }
      : {
          methods: draft.methods.length > 0 ? [...draft.methods] : undefined,
          path: path === "" ? undefined : path,
          // Checked without a path: sent, so the schema says it needs one.
          caseInsensitive: draft.pathAnyCase ? true : undefined,
        },
    // None checked: charged at admission (the field left out), in the classes' order otherwise.
    chargeOn:
      !byDescriptor && draft.chargeOn.length > 0 ? STATUS_CLASSES.filter((c) => draft.chargeOn.includes(c)) : undefined,
    failMode: draft.failMode,
    mode: draft.mode,
  };
}
