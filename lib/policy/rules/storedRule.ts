/**
 * Conversion between the contract's rule (lib/policy/rules/ruleSchema.ts) and its database row.
 * windowMs and blockMs are BigInt columns (up to 366 days in ms exceeds int4) and numbers everywhere else.
 */
import { ruleWindowMs, type DescriptorEntry, type Rule } from "./ruleSchema";

/** The columns of a Rule row that describe the rule itself (no owner, no position). */
export interface RuleColumns {
  name: string;
  scope: Rule["scope"];
  scopeKey: string | null;
  onMissing: string | null;
  algorithm: Rule["algorithm"];
  limit: number;
  /** For a calendar rule its period's longest length (read back as absent: the rule has `period`). */
  windowMs: bigint;
  /** A calendar rule's `period` and `timeZone`; null for a rule counted per windowMs. */
  period: string | null;
  timeZone: string | null;
  burst: number;
  cost: number;
  methods: string[];
  path: string | null;
  /** `match.caseInsensitive`; false when absent (stored rules read back without it). */
  caseInsensitive: boolean;
  /** `match.descriptor` (scope descriptor), a JSON column; null (or absent when written) otherwise. */
  descriptor?: unknown;
  blockMs: bigint;
  /** Empty: charged at admission (no chargeOn). */
  chargeOn: string[];
  failMode: Rule["failMode"];
  mode: Rule["mode"];
}

/** The columns to write: `descriptor` left out (NULL) unless the rule has one. */
export function toColumns(rule: Rule): Omit<RuleColumns, "descriptor"> & { descriptor?: DescriptorEntry[] } {
  return {
    name: rule.name,
    scope: rule.scope,
    scopeKey: rule.scopeKey ?? null,
    onMissing: rule.onMissing ?? null,
    algorithm: rule.algorithm,
    limit: rule.limit,
    windowMs: BigInt(ruleWindowMs(rule)),
    period: rule.period ?? null,
    timeZone: rule.period === undefined ? null : (rule.timeZone ?? "UTC"),
    burst: rule.burst,
    cost: rule.cost,
    methods: rule.match.methods ?? [],
    path: rule.match.path ?? null,
    caseInsensitive: rule.match.caseInsensitive ?? false,
    ...(rule.match.descriptor ? { descriptor: rule.match.descriptor.map(copyEntry) } : {}),
    blockMs: BigInt(rule.blockMs),
    chargeOn: rule.chargeOn ?? [],
    failMode: rule.failMode,
    mode: rule.mode,
  };
}

export function fromColumns(row: RuleColumns): Rule {
  const match: Rule["match"] = {};
  if (row.methods.length > 0) match.methods = row.methods as NonNullable<Rule["match"]["methods"]>;
  if (row.path !== null) match.path = row.path;
  if (row.caseInsensitive) match.caseInsensitive = true;
  const descriptor = descriptorOf(row.descriptor);
  if (descriptor) match.descriptor = descriptor;
  const attribute =
    row.scopeKey === null
      ? {}
      : { scopeKey: row.scopeKey, onMissing: (row.onMissing === "refuse" ? "refuse" : "skip") as Rule["onMissing"] };
  return {
    name: row.name,
    scope: row.scope,
    algorithm: row.algorithm,
    limit: row.limit,
    ...(row.period === null
      ? { windowMs: Number(row.windowMs) }
      : { period: row.period as NonNullable<Rule["period"]>, timeZone: row.timeZone ?? "UTC" }),
    burst: row.burst,
    cost: row.cost,
    match,
    blockMs: Number(row.blockMs),
    ...(row.chargeOn.length > 0 ? { chargeOn: row.chargeOn as NonNullable<Rule["chargeOn"]> } : {}),
    failMode: row.failMode,
    mode: row.mode,
    ...attribute,
  };
}

function copyEntry(entry: DescriptorEntry): DescriptorEntry {
  return entry.value === undefined ? { key: entry.key } : { key: entry.key, value: entry.value };
}

/** The stored `match.descriptor` (written by toColumns from a parsed rule), or undefined for none. */
function descriptorOf(column: unknown): DescriptorEntry[] | undefined {
  if (!Array.isArray(column)) return undefined;
  return column.map((entry: unknown) => {
    const { key, value } = (entry ?? {}) as { key?: unknown; value?: unknown };
    if (typeof key !== "string") throw new Error("stored match.descriptor entry without a key");
    return typeof value === "string" ? { key, value } : { key };
  });
}
