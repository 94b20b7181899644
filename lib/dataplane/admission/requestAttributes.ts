/**
 * The request attributes `header` and `query` rules charge per value (lib/policy/rules/ruleSchema.ts):
 * reads each such rule's header or query parameter from the request and decides what happens when
 * it is missing.
 *
 * Contract
 * - `resolveAttributes(rules, request)` returns the rules that apply (a rule whose attribute is
 *   missing or empty and whose `onMissing` is `skip` is left out) with the values by
 *   `RuleAttribute.id`, ready for the limiter's subject (lib/limiter/keys.ts), or names the first
 *   ENFORCE rule whose attribute is missing with `onMissing: refuse`, or repeated (the caller
 *   answers 400 and charges nothing). A shadow rule never refuses, so a missing or repeated
 *   attribute only skips it.
 * - Repeated: a header sent on several lines, or a query parameter given several times, with
 *   different values. Frameworks read those differently (the first, the last, all joined), so no
 *   value Sluice could count is surely the one the API acts on; and counting the joined text gave
 *   a client a fresh counter per request (`X-User-Id: alice` plus a random second line).
 *   The same value repeated is no ambiguity.
 * - Values: a header's value as received on its one line, trimmed; a query parameter's value,
 *   percent-decoded (`+` is a space), trimmed. A value over
 *   MAX_ATTRIBUTE_BYTES (UTF-8) is counted by its SHA-256 digest (`#` + 22 base64url characters),
 *   so what reaches Redis keys, the refusal cache and the monitoring data is bounded.
 * - No allocation for requests whose rules have no attribute (the common case).
 */
import { createHash } from "node:crypto";
import type { LimiterRule, RuleAttribute } from "../../limiter/types";
import type { HeaderSource } from "./credentials";

export const MAX_ATTRIBUTE_BYTES = 256;

export interface AttributeSource {
  headers: HeaderSource;
  /** The raw query string, with or without its leading `?` (absent or "": none). */
  query?: string;
}

export type ResolvedAttributes =
  | { ok: true; rules: LimiterRule[]; attributes?: Readonly<Record<string, string>> }
  | { ok: false; rule: LimiterRule; attribute: RuleAttribute; problem: "missing" | "repeated" };

/** Read from the request: the value, none, or several different ones. */
type Read = string | undefined | typeof REPEATED;
const REPEATED = Symbol("repeated");

/** A value as counted: itself, or its digest past MAX_ATTRIBUTE_BYTES. */
export function boundedAttributeValue(value: string): string {
  // A string of more than MAX/3 UTF-16 units may exceed MAX bytes; only then is it measured.
  if (value.length * 3 <= MAX_ATTRIBUTE_BYTES || Buffer.byteLength(value) <= MAX_ATTRIBUTE_BYTES) return value;
  return "#" + createHash("sha256").update(value).digest("base64url").slice(0, 22);
}

function readAttribute(attribute: RuleAttribute, source: AttributeSource, params: () => URLSearchParams): Read {
  const values =
    attribute.source === "header"
      ? (source.headers.all?.(attribute.name) ?? [source.headers.get(attribute.name)])
      : params().getAll(attribute.name);
  const value = values[0]?.trim();
  for (let i = 1; i < values.length; i++) if (values[i]?.trim() !== value) return REPEATED;
  return value ? boundedAttributeValue(value) : undefined;
}

export function resolveAttributes(rules: LimiterRule[], source: AttributeSource): ResolvedAttributes {
  let attributes: Record<string, string> | undefined;
  /** The rules kept, once one was left out (until then `rules` itself is the answer). */
  let kept: LimiterRule[] | undefined;
  let parsed: URLSearchParams | undefined;
  const params = () => (parsed ??= new URLSearchParams(source.query));
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    const attribute = rule.attribute;
    if (attribute) {
      const value = attributes?.[attribute.id] ?? readAttribute(attribute, source, params);
      if (value === REPEATED && rule.mode === "enforce") return { ok: false, rule, attribute, problem: "repeated" };
      if (value === undefined || value === REPEATED) {
        if (value === undefined && attribute.onMissing === "refuse" && rule.mode === "enforce")
          return { ok: false, rule, attribute, problem: "missing" };
        kept ??= rules.slice(0, i);
        continue;
      }
      (attributes ??= {})[attribute.id] = value;
    }
    kept?.push(rule);
  }
  return { ok: true, rules: kept ?? rules, ...(attributes ? { attributes } : {}) };
}

/** How a missing attribute is named to the client: `header X-User-Id`, `query parameter user`. */
export function describeAttribute(attribute: RuleAttribute): string {
  return attribute.source === "header" ? `header ${attribute.name}` : `query parameter ${attribute.name}`;
}
