/**
 * What a new rule list changes against an old one, one short sentence per rule, matched by name:
 * "per-key: 120 → 60 per min", "added burst: 10 per s", "removed trial". Used by the editor's save
 * bar, the simulator (beside its results) and the audit log. Rules whose numbers cannot be read
 * (a draft still being typed) are described as far as they can.
 */
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { ALGORITHM_GUIDE } from "./algorithmGuide";
import { descriptorText } from "./envoyDescriptor";
import { formatDuration, formatLimit, perWindow } from "./duration";

/** A rule as far as a change summary needs it: stored rules and parsed drafts both fit. */
export type ComparableRule = Pick<
  RuleInput,
  | "name"
  | "limit"
  | "windowMs"
  | "period"
  | "timeZone"
  | "algorithm"
  | "burst"
  | "cost"
  | "blockMs"
  | "chargeOn"
  | "scope"
  | "mode"
  | "failMode"
  | "match"
>;

const count = (n: number) => n.toLocaleString("en");

function rate(rule: ComparableRule): string {
  if (!Number.isFinite(rule.limit) || (!rule.period && !Number.isFinite(rule.windowMs))) return "an incomplete limit";
  return formatLimit(rule.limit, rule);
}

function matchText(rule: ComparableRule): string {
  if (rule.match?.descriptor) return `Envoy ${descriptorText(rule.match.descriptor)}`;
  const methods = rule.match?.methods?.join(", ");
  const path = rule.match?.path ? rule.match.path + (rule.match.caseInsensitive ? " (any case)" : "") : undefined;
  if (!methods && !path) return "every request";
  return [methods, path].filter(Boolean).join(" ");
}

const penaltyText = (rule: ComparableRule) => (rule.blockMs ? formatDuration(rule.blockMs) : "none");

const chargedText = (rule: ComparableRule) =>
  rule.chargeOn?.length ? rule.chargeOn.join(", ") + " responses" : "at admission";

const algorithmName = (rule: ComparableRule) =>
  rule.algorithm ? ALGORITHM_GUIDE[rule.algorithm].title.toLowerCase() : "sliding window";

/** The differences of one rule kept under the same name, in words; empty when nothing changed. */
function ruleDifferences(before: ComparableRule, after: ComparableRule): string[] {
  const parts: string[] = [];
  const sameWindow = perWindow(before) === perWindow(after);
  if (before.limit !== after.limit || !sameWindow) {
    parts.push(
      sameWindow && Number.isFinite(after.limit)
        ? `${count(before.limit)} → ${count(after.limit)} ${perWindow(after)}`
        : `${rate(before)} → ${rate(after)}`,
    );
  }
  const pairs: [string, string | undefined, string | undefined][] = [
    ["algorithm", algorithmName(before), algorithmName(after)],
    [
      "burst",
      before.burst === undefined ? undefined : count(before.burst),
      after.burst === undefined ? undefined : count(after.burst),
    ],
    ["cost", String(before.cost ?? 1), String(after.cost ?? 1)],
    ["penalty", penaltyText(before), penaltyText(after)],
    ["charged", chargedText(before), chargedText(after)],
    ["scope", before.scope ?? "key", after.scope ?? "key"],
    ["mode", before.mode ?? "enforce", after.mode ?? "enforce"],
    ["fail mode", before.failMode ?? "open", after.failMode ?? "open"],
    ["applies to", matchText(before), matchText(after)],
  ];
  for (const [label, was, now] of pairs) {
    // The window algorithms store burst = limit: a burst means something only where it is used.
    if (
      label === "burst" &&
      (was === undefined || now === undefined || !ALGORITHM_GUIDE[after.algorithm ?? "sliding_window"].usesBurst)
    )
      continue;
    if (was !== now) parts.push(`${label} ${was} → ${now}`);
  }
  return parts;
}

export function describeRuleChanges(before: readonly ComparableRule[], after: readonly ComparableRule[]): string[] {
  const out: string[] = [];
  const old = new Map(before.map((r) => [r.name, r]));
  const kept = new Set<string>();
  for (const rule of after) {
    const was = old.get(rule.name);
    if (!was) {
      out.push(`added ${rule.name || "a new rule"}: ${rate(rule)}`);
      continue;
    }
    kept.add(rule.name);
    const differences = ruleDifferences(was, rule);
    if (differences.length > 0) out.push(`${rule.name}: ${differences.join(", ")}`);
  }
  for (const rule of before) if (!kept.has(rule.name)) out.push(`removed ${rule.name}`);
  return out;
}
