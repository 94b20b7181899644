/**
 * The one place Redis keys are built.
 *
 * `<prefix>{<tenantId>}<algorithm char><rule ref><SCOPE char><subject>`, e.g.
 * `sluice:{aB3dE5fG}t1KQw3Er5Ty` (token bucket, ref 1, scope key, key id Qw3Er5Ty).
 * - the `{tenantId}` hash tag puts every key of one decision in one Redis Cluster slot;
 * - the algorithm char keeps a rule's old state from being misread when its algorithm changes;
 * - the ref (lowercase `[a-z0-9_-]`, see lib/rules/ruleRefs.ts) names the rule's counters;
 * - the scope char is upper case (K key, T tenant, I ip, D identifier) and so cannot occur in a
 *   ref: the layout stays unambiguous without separators;
 * - long subjects are hashed.
 * Keys are this compact on purpose: Redis memory per client is mostly the key (a key of at most
 * 30 bytes fits jemalloc's 32-byte class; see the README's memory figures).
 * Throws when the subject lacks what a rule's scope needs, or a ref is malformed: caller bugs.
 */
import { createHash } from "node:crypto";
import type { Algorithm, LimiterRule, Subject } from "./types";

const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const REF = /^[a-z0-9_-]{1,64}$/;
const MAX_RAW_PART = 64;

/** One character per algorithm in keys (the script's dispatch codes are in the registry). */
const ALGORITHM_CHAR: Record<Algorithm, string> = {
  fixed_window: "f",
  sliding_window: "w",
  sliding_log: "l",
  token_bucket: "t",
  gcra: "g",
};

function compact(part: string): string {
  if (part.length <= MAX_RAW_PART) return part;
  return "#" + createHash("sha256").update(part).digest("base64url").slice(0, 22);
}

function required(rule: Pick<LimiterRule, "scope" | "name">, value: string | undefined, what: string): string {
  if (!value) throw new Error(`rule "${rule.name}" has scope ${rule.scope} but the subject has no ${what}`);
  return compact(value);
}

export function subjectPart(rule: Pick<LimiterRule, "scope" | "name">, subject: Subject): string {
  switch (rule.scope) {
    case "key":
      return "K" + required(rule, subject.keyId, "keyId");
    case "tenant":
      return "T";
    case "ip":
      return "I" + required(rule, subject.ip, "ip");
    case "identifier":
      return "D" + required(rule, subject.identifier, "identifier");
  }
}

/** The hash-tagged key prefix of one tenant; every key of the tenant starts with it. */
export function tenantKeyPrefix(prefix: string, tenantId: string): string {
  if (!TENANT_ID.test(tenantId)) throw new Error(`invalid tenant id for a Redis key: ${JSON.stringify(tenantId)}`);
  return `${prefix}{${tenantId}}`;
}

export function counterKey(prefix: string, rule: LimiterRule, subject: Subject): string {
  if (!REF.test(rule.ref)) throw new Error(`invalid rule ref for a Redis key: ${JSON.stringify(rule.ref)}`);
  return `${tenantKeyPrefix(prefix, subject.tenantId)}${ALGORITHM_CHAR[rule.algorithm]}${rule.ref}${subjectPart(rule, subject)}`;
}
