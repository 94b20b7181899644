/**
 * A tenant's policy in the one form two policies are compared in (`PolicyState`), its canonical
 * JSON (keys sorted at every level, `undefined` left out: equal policies give equal text whatever
 * order Postgres' JSON columns or a YAML file hold their keys in), the ETag of an exported document,
 * and what differs between two states, by the names `changed` answers:
 * `rules`, `tiers.<tier>`, `keys.<name>.tier`, `keys.<name>.billingDay`, `keys.<name>.rules`, `overrides.<rule>`, `access`,
 * `identity`, `upstream`, `alerts`.
 */
import { createHash } from "node:crypto";
import type { Rule } from "../../policy/rules/ruleSchema";
import { fromColumns, toColumns } from "../../policy/rules/storedRule";
import type { IdentifierOverride } from "../../policy/overrides/overrideSchema";
import type { AccessLists } from "../../policy/access/accessListSchema";
import type { TenantIdentity } from "../../policy/identity/identitySchema";
import type { BillingSettings, ClientLimitCondition, RefusalRateCondition } from "../alerts/alertSchema";

export interface KeyPolicy {
  tier: string | null;
  rules: Rule[];
  /** The key's billing day (lib/policy/compiled/billingAnchor.ts); absent or null: none. */
  billingDay?: number | null;
}

/** Everything a policy document sets, as stored (secrets included: this form is never answered). */
export interface PolicyState {
  rules: Rule[];
  /** By key id. */
  keys: Record<string, KeyPolicy>;
  /** Tiers with rules only (a tier without rules is no policy). */
  tiers: Record<string, Rule[]>;
  /** Identifier rules with overrides only. */
  overrides: Record<string, IdentifierOverride[]>;
  access: AccessLists;
  identity: TenantIdentity;
  upstream: { url: string; timeoutMs: number; signRequests: boolean } | null;
  alerts: {
    webhookUrl: string;
    refusalRate: RefusalRateCondition | null;
    clientLimit: ClientLimitCondition | null;
    billing: BillingSettings | null;
  } | null;
}

/** JSON with object keys sorted at every level; `undefined` members left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

/** A strong ETag of a document: the quoted SHA-256 (base64url) of its canonical JSON. */
export function policyEtag(document: unknown): string {
  return `"${createHash("sha256").update(canonicalJson(document)).digest("base64url")}"`;
}

/** Whether an `If-Match` header names `etag` (or is `*`); a weak `W/` form is compared by its value. */
export function ifMatchHolds(header: string | null, etag: string): boolean {
  if (header === null) return true;
  return header
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === "*" || t === etag);
}

/** A rule as it reads back once stored (defaults the store drops or fills), so a parsed rule compares with a stored one. */
export const storedForm = (rule: Rule): Rule => fromColumns(toColumns(rule));

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * What differs between `current` and `desired`, in the order the parts are applied. Keys: only
 * those `desired` names (a key the document leaves out keeps its policy); `refOf` names a key id
 * as the document does.
 */
export function changedParts(current: PolicyState, desired: PolicyState, refOf: (keyId: string) => string): string[] {
  const changed: string[] = [];
  if (!same(current.rules, desired.rules)) changed.push("rules");
  for (const tier of unionKeys(current.tiers, desired.tiers))
    if (!same(current.tiers[tier] ?? [], desired.tiers[tier] ?? [])) changed.push(`tiers.${tier}`);
  for (const keyId of Object.keys(desired.keys).sort((a, b) => compare(refOf(a), refOf(b)))) {
    const want = desired.keys[keyId]!;
    const have = current.keys[keyId] ?? { tier: null, rules: [] };
    if (have.tier !== want.tier) changed.push(`keys.${refOf(keyId)}.tier`);
    if ((have.billingDay ?? null) !== (want.billingDay ?? null)) changed.push(`keys.${refOf(keyId)}.billingDay`);
    if (!same(have.rules, want.rules)) changed.push(`keys.${refOf(keyId)}.rules`);
  }
  for (const rule of unionKeys(current.overrides, desired.overrides))
    if (!same(current.overrides[rule] ?? [], desired.overrides[rule] ?? [])) changed.push(`overrides.${rule}`);
  for (const part of ["access", "identity", "upstream", "alerts"] as const)
    if (!same(current[part], desired[part])) changed.push(part);
  return changed;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function unionKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compare);
}
