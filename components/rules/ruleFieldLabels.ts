/**
 * The rule form's fields, named by their path in the API's rule (`match.path`), each with the label
 * the form shows. The one list of fields: the error placing (ruleErrors.ts) and the wording of
 * messages (plainErrors.ts) both derive from it.
 */
export const FIELD_LABELS = {
  name: "Name",
  scope: "Scope",
  scopeKey: "Header or parameter",
  onMissing: "When missing",
  algorithm: "Algorithm",
  limit: "Limit",
  windowMs: "Window",
  period: "Calendar period",
  timeZone: "Time zone",
  burst: "Burst",
  cost: "Cost",
  blockMs: "Penalty",
  "match.methods": "Methods",
  "match.path": "Path",
  "match.caseInsensitive": "Any case",
  "match.descriptor": "Envoy descriptor",
  chargeOn: "Charge only responses",
  failMode: "Fail mode",
  mode: "Mode",
} as const;

/** A field of the rule form, or "rule" for a message about the rule as a whole (e.g. an unknown field). */
export type RuleField = keyof typeof FIELD_LABELS | "rule";
