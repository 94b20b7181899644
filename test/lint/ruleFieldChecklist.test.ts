/**
 * Keeps docs/architecture.md "How to add a rule field" true where a test can see it: every field
 * of the rule schema (lib/policy/rules/ruleSchema.ts; `match.*` by its path) must have its row in
 * docs/rules.md's field table, be in the OpenAPI document's Rule, survive storage (its columns and
 * back) and the dashboard form (its draft and back), have a label in the form's field list
 * (components/rules/ruleFieldLabels.ts) and show in the change summary (save bar, simulator, audit
 * log). A field added to the schema fails here until it has a pair of values in CHANGES and every
 * place knows it; the known gaps are listed with their reason, and fail too once closed (so the
 * list cannot go stale). The last test shows each check fires.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/control/openapi/openApiDocument";
import { matchSchema, ruleSchema, type Rule, type RuleInput } from "@/lib/policy/rules/ruleSchema";
import { fromColumns, toColumns } from "@/lib/policy/rules/storedRule";
import { describeRuleChanges } from "@/components/rules/ruleChanges";
import { draftFromRule, draftToInput } from "@/components/rules/ruleDraft";
import { FIELD_LABELS } from "@/components/rules/ruleFieldLabels";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The schema's fields: its top-level keys, `match` replaced by `match.<key>` for each of its keys. */
const SCHEMA_FIELDS = [
  ...Object.keys(ruleSchema.in.shape).filter((key) => key !== "match"),
  ...Object.keys(matchSchema.shape).map((key) => `match.${key}`),
].sort();

const base = { name: "r", limit: 10, windowMs: 60_000 } satisfies RuleInput;
const header = { ...base, scope: "header", scopeKey: "x-team" } satisfies RuleInput;
const descriptor = { ...base, scope: "descriptor" } satisfies RuleInput;
const calendar = { name: "r", limit: 10, algorithm: "fixed_window", period: "day" } satisfies RuleInput;

/** Per field, two valid rules that differ in that field only. */
const CHANGES: Record<string, [RuleInput, RuleInput]> = {
  name: [base, { ...base, name: "s" }],
  scope: [base, { ...base, scope: "tenant" }],
  scopeKey: [header, { ...header, scopeKey: "x-org" }],
  onMissing: [
    { ...header, onMissing: "skip" },
    { ...header, onMissing: "refuse" },
  ],
  algorithm: [base, { ...base, algorithm: "fixed_window" }],
  // With an explicit burst: the window algorithms store burst = limit.
  limit: [
    { ...base, algorithm: "token_bucket", burst: 10 },
    { ...base, algorithm: "token_bucket", burst: 10, limit: 20 },
  ],
  windowMs: [base, { ...base, windowMs: 1_000 }],
  period: [calendar, { ...calendar, period: "month" }],
  timeZone: [calendar, { ...calendar, timeZone: "Europe/Berlin" }],
  burst: [
    { ...base, algorithm: "token_bucket", burst: 10 },
    { ...base, algorithm: "token_bucket", burst: 20 },
  ],
  cost: [base, { ...base, cost: 2 }],
  "match.methods": [base, { ...base, match: { methods: ["GET"] } }],
  "match.path": [base, { ...base, match: { path: "/orders/*" } }],
  "match.caseInsensitive": [
    { ...base, match: { path: "/login" } },
    { ...base, match: { path: "/login", caseInsensitive: true } },
  ],
  "match.descriptor": [
    { ...descriptor, match: { descriptor: [{ key: "team" }] } },
    { ...descriptor, match: { descriptor: [{ key: "team", value: "a" }] } },
  ],
  blockMs: [base, { ...base, blockMs: 60_000 }],
  chargeOn: [base, { ...base, chargeOn: ["4xx"] }],
  failMode: [base, { ...base, failMode: "closed" }],
  mode: [base, { ...base, mode: "shadow" }],
};

const PLACES = {
  docs: "docs/rules.md field table",
  openApi: "OpenAPI Rule schema",
  storage: "storage round trip (storedRule.ts, prisma/schema.prisma)",
  form: "dashboard form round trip (ruleDraft.ts)",
  labels: "dashboard field list (ruleFieldLabels.ts)",
  summary: "change summary (ruleChanges.ts)",
} as const;

/** Places a field is known to be missing from, and why. */
const KNOWN_GAPS: Record<string, { places: string[]; why: string }> = {
  scopeKey: {
    places: [PLACES.summary],
    why: "the summary names the scope, not its attribute (the audit diff shows it)",
  },
  onMissing: { places: [PLACES.summary], why: "likewise" },
};

interface Places {
  rulesMd: string;
  openApiRule: { properties: Record<string, { properties?: Record<string, unknown> }> };
  labels: Readonly<Record<string, string>>;
  store: (rule: Rule) => Rule;
  form: (rule: Rule) => Rule;
  summary: (before: Rule, after: Rule) => string[];
}

const REAL: Places = {
  rulesMd: fs.readFileSync(path.join(ROOT, "docs/rules.md"), "utf8"),
  openApiRule: (openApiDocument() as unknown as { components: { schemas: { Rule: Places["openApiRule"] } } }).components
    .schemas.Rule,
  labels: FIELD_LABELS,
  store: (rule) => fromColumns(toColumns(rule)),
  form: (rule) => ruleSchema.parse(draftToInput(draftFromRule(rule))),
  summary: (before, after) => describeRuleChanges([before], [after]),
};

/** The rows of docs/rules.md's field table (`| field | meaning | valid values | default |`), by field. */
function fieldTable(markdown: string): Map<string, string> {
  const lines = markdown.split("\n");
  const head = lines.findIndex((line) => line.startsWith("| field | meaning |"));
  const rows = new Map<string, string>();
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith("|")) break;
    const name = /^\| `([^`]+)` \|/.exec(line)?.[1];
    if (name) rows.set(name, line);
  }
  return rows;
}

/** `field`'s value in `rule` (`match.path`: rule.match.path). */
function valueOf(rule: Rule, field: string): unknown {
  const [top, inner] = field.split(".");
  const value = (rule as unknown as Record<string, unknown>)[top!];
  return inner === undefined ? value : (value as Record<string, unknown> | undefined)?.[inner];
}

/** The places (PLACES) that do not know `field`, given two rules that differ in it. */
function missingPlaces(field: string, [a, b]: [Rule, Rule], places: Places): string[] {
  const missing: string[] = [];
  const [top, inner] = field.split(".");
  const row = fieldTable(places.rulesMd).get(top!);
  if (!row || (inner !== undefined && !new RegExp("`" + inner + "\\b").test(row))) missing.push(PLACES.docs);
  const property = places.openApiRule.properties[top!];
  if (!property || (inner !== undefined && !property.properties?.[inner])) missing.push(PLACES.openApi);
  const survives = (through: (rule: Rule) => Rule) =>
    [a, b].every((rule) => JSON.stringify(valueOf(through(rule), field)) === JSON.stringify(valueOf(rule, field)));
  if (!survives(places.store)) missing.push(PLACES.storage);
  if (!survives(places.form)) missing.push(PLACES.form);
  if (!(field in places.labels)) missing.push(PLACES.labels);
  if (places.summary(a, b).length === 0) missing.push(PLACES.summary);
  return missing;
}

const parsedPair = (field: string): [Rule, Rule] => [
  ruleSchema.parse(CHANGES[field]![0]),
  ruleSchema.parse(CHANGES[field]![1]),
];

describe("how to add a rule field (docs/architecture.md)", () => {
  it("every field of the rule schema has a pair of values here (a new field: add it, then walk the checklist)", () => {
    expect(Object.keys(CHANGES).sort()).toEqual(SCHEMA_FIELDS);
  });

  it.each(SCHEMA_FIELDS)("%s: each pair is two valid rules that differ in that field only", (field) => {
    const [a, b] = parsedPair(field);
    expect(valueOf(a, field)).not.toEqual(valueOf(b, field));
    const without = (rule: Rule) => {
      const copy = structuredClone(rule) as unknown as Record<string, Record<string, unknown>>;
      const [top, inner] = field.split(".");
      if (inner === undefined) delete copy[top!];
      else delete copy[top!]![inner];
      return copy;
    };
    expect(without(a)).toEqual(without(b));
  });

  it.each(SCHEMA_FIELDS)("%s is known to every place (but its listed gaps)", (field) => {
    expect(missingPlaces(field, parsedPair(field), REAL)).toEqual(KNOWN_GAPS[field]?.places ?? []);
  });

  it("the checks fire: a field missing from each place is reported there", () => {
    const broken: Places = {
      rulesMd: REAL.rulesMd.replace(/^\| `cost` \|.*\n/m, "").replaceAll("`caseInsensitive", "`anyCase"),
      openApiRule: { properties: { ...REAL.openApiRule.properties, cost: undefined! } },
      labels: Object.fromEntries(Object.entries(REAL.labels).filter(([name]) => name !== "cost")),
      store: (rule) => ({ ...REAL.store(rule), cost: 1 }),
      form: (rule) => ({ ...REAL.form(rule), cost: 1 }),
      summary: (before, after) => (before.cost !== after.cost ? [] : REAL.summary(before, after)),
    };
    expect(missingPlaces("cost", parsedPair("cost"), broken)).toEqual(Object.values(PLACES));
    expect(missingPlaces("match.caseInsensitive", parsedPair("match.caseInsensitive"), broken)).toEqual([PLACES.docs]);
  });
});
