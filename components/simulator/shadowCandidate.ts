/**
 * The rule list of "start in shadow mode": the tenant's current rules unchanged, plus every
 * candidate rule that differs from the current rule of its name, as a shadow rule. A shadow rule
 * never refuses; it counts what it would refuse, which the overview draws apart. Candidate rules
 * equal to a current rule (all but the mode) add nothing and are left out. A name already taken
 * gets "-candidate" (then "-candidate-2", …), cut to the schema's RULE_NAME_MAX characters.
 */
import { RULE_NAME_MAX as MAX_NAME } from "@/lib/common/fieldLimits";
import { ruleSchema, type Rule, type RuleInput } from "@/lib/policy/rules/ruleSchema";

const SUFFIX = "-candidate";

/** JSON with keys sorted: the schema's output order depends on which optional fields were given. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Both rules as the schema stores them, mode aside. */
function sameLimit(a: Rule, b: Rule): boolean {
  return canonical({ ...a, mode: "enforce" }) === canonical({ ...b, mode: "enforce" });
}

function freeName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? SUFFIX : `${SUFFIX}-${n}`;
    const candidate = `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export interface ShadowPlan {
  rules: RuleInput[];
  /** Names of the shadow rules added (after renaming). */
  added: string[];
}

export function withShadowCandidate(current: Rule[], candidate: RuleInput[]): ShadowPlan {
  const byName = new Map(current.map((rule) => [rule.name, ruleSchema.parse(rule)]));
  const taken = new Set(byName.keys());
  const rules: RuleInput[] = [...current];
  const added: string[] = [];
  for (const input of candidate) {
    const parsed = ruleSchema.parse(input);
    const existing = byName.get(parsed.name);
    if (existing && sameLimit(existing, parsed)) continue;
    const name = freeName(parsed.name, taken);
    taken.add(name);
    added.push(name);
    rules.push({ ...input, name, mode: "shadow" });
  }
  return { rules, added };
}
