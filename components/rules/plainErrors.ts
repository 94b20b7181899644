/**
 * The shared rule schema's messages name API fields ("windowMs must be at least 1000 (1 second)");
 * the form shows them in the words of its own labels ("Window must be at least 1 s"). Applied to
 * the browser's own check and to a server's 422 alike. A message it does not know keeps its
 * text, with the API field name at its start replaced by the label.
 */
import { MAX_WINDOW_DAYS, MIN_WINDOW_MS, RULE_NAME_MAX } from "@/lib/common/fieldLimits";
import { DURATION_HELP } from "./duration";
import { FIELD_LABELS } from "./ruleFieldLabels";

const REWRITES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^windowMs must be a number/, () => `Window: write ${DURATION_HELP}`],
  [/^windowMs must be a whole number/, () => "Window must be a whole number of milliseconds"],
  [/^windowMs must be at least /, () => `Window must be at least ${MIN_WINDOW_MS / 1000} s`],
  [/^windowMs must be at most /, () => `Window must be at most ${MAX_WINDOW_DAYS} days`],
  [/^blockMs must be a number/, () => `Penalty: write ${DURATION_HELP}, or leave it empty for none`],
  [/^blockMs must be a whole number/, () => "Penalty must be a whole number of milliseconds"],
  [/^blockMs must be at least 0/, () => "Penalty cannot be negative; leave it empty for none"],
  [/^blockMs must be at most /, () => `Penalty must be at most ${MAX_WINDOW_DAYS} days`],
  [/^name is required/, () => "Give the rule a name"],
  [
    /^scopeKey is required for scope (header|query)/,
    (m) =>
      m[1] === "header" ? "Name the header to count by, such as x-user-id" : "Name the query parameter to count by",
  ],
  [
    /^name must be 1-\d+ characters/,
    () => `Name: use 1 to ${RULE_NAME_MAX} lower-case letters, digits, _ or -, starting with a letter or digit`,
  ],
  [/^duplicate rule name "(.*)"$/, (m) => `Another rule is already named ${m[1]}`],
  [
    /^(limit|burst|cost) must be a number$/,
    (m) => `${FIELD_LABELS[m[1] as "limit"]} must be a whole number, such as 100`,
  ],
  [/^path must start with \//, () => "Path must start with / and contain no spaces, ? or #"],
  [/^path wildcards must be a whole segment/, () => "Path: a wildcard must be a whole segment, /* or /**"],
  [/^descriptor (.*)$/, (m) => `Envoy descriptor: ${m[1]}`],
  [/^caseInsensitive needs a path/, () => "Any case: write a path to compare, or uncheck it"],
  [
    /^chargeOn cannot be set on an identifier rule/,
    () =>
      "Charge only responses: an identifier rule is charged by POST /api/v1/check; uncheck every class, or pick another scope",
  ],
];

const API_NAME =
  /^(name|scopeKey|onMissing|scope|algorithm|limit|windowMs|period|timeZone|burst|cost|blockMs|methods|path|chargeOn|failMode|mode)\b/;
const API_LABEL: Record<string, string> = { ...FIELD_LABELS, methods: "Methods", path: "Path" };

export function plainMessage(message: string): string {
  for (const [pattern, rewrite] of REWRITES) {
    const match = pattern.exec(message);
    if (match) return rewrite(match);
  }
  return message.replace(API_NAME, (name) => API_LABEL[name] ?? name);
}
