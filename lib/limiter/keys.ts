/**
 * The one place Redis keys are built.
 *
 * Subject keys (every algorithm but sliding_log): `<prefix>{<tenantId>}2<SCOPE char><subject>`, e.g.
 * `sluice:{aB3dE5fG}2KQw3Er5Ty` (scope key, key id Qw3Er5Ty). One key per subject holds the state
 * of every rule of that subject, each under its field `<algorithm char><rule ref>` (`counterField`;
 * the format is in lua/includes/preamble.lua). Sliding-log keys (a sorted set per rule and subject):
 * `<prefix>{<tenantId>}l<rule ref><SCOPE char><subject>`. Concurrency leases (a sorted set per rule
 * and subject, lua/includes/concurrency.lua): `<prefix>{<tenantId>}c<rule ref><SCOPE char><subject>`.
 * - the `2` (a digit) marks a subject key: a rule's own key (sliding_log, concurrency) has its
 *   algorithm char (lower case) there, so no key of one kind is ever read as the other;
 * - the `{tenantId}` hash tag puts every key of one decision in one Redis Cluster slot;
 * - the algorithm char in a field keeps a rule's old state from being misread when its algorithm changes;
 * - the ref (lowercase `[a-z0-9_-]`, see lib/policy/rules/ruleRefs.ts) names the rule's counters; it holds no
 *   `,` or `=`, which separate fields in a subject key;
 * - the scope char is upper case (K key, T tenant, I ip, D identifier, H header, Q query,
 *   E descriptor: Envoy's rate limit service) and so
 *   cannot occur in a ref: the layout stays unambiguous without separators;
 * - a `header`/`query` subject is the attribute's value only (`2H<value>`): two such rules keyed by
 *   different attributes that see the same value share the Redis key but never a field (each rule
 *   has its own ref), so their counts stay apart;
 * - long subjects are hashed to `#` + 22 base64url characters; a raw subject that starts with `#` gets
 *   a second `#` (`#x` -> `##x`), so no raw subject can take a hashed form's key (base64url has no
 *   `#`) and no two raw subjects share one.
 * - a `descriptor` subject is built by lib/dataplane/envoy/descriptorRules.ts from the values of the
 *   descriptor entries its rule counts by (`2E<value>`, hashed when long like any subject);
 * - an `ip` subject is counted per limitingAddress (IPv6 per /64, IPv4-mapped as IPv4).
 * - a `key` subject is the API key's id (base62), or a JWT caller's subject marked `~<sub>`
 *   (lib/dataplane/admission/hostCaller.ts JWT_SUBJECT_MARK): no subject takes a key's counter.
 * - a `header`/`query`/`identifier` value over the tenant's subject budget (Subject.overflow,
 *   lib/limiter/subjectBudget.ts) is counted on an overflow subject `#~<n>` (`2H#~3`): no raw
 *   subject takes that form (it would be `##~3`) and no hashed one (base64url has no `~`).
 * Keys are this compact on purpose: Redis memory per client is mostly the key (a key of at most
 * 30 bytes fits jemalloc's 32-byte class; see docs/architecture.md "Redis keys"). For the same
 * reason a subject key with one field is written as one integer when its ref is at most 99 (`<state><ref
 * in decimal><one digit for the ref's digit count and the field char>`, lua/includes/preamble.lua).
 * A rule's state is identified by (counterKey, counterField) everywhere (Lua, the refusal cache, the
 * local fail mode); `stateId` joins the two.
 * - a rule with a penalty (blockMs) keeps its end in the subject key too, under `penaltyField`.
 * Throws when the subject lacks what a rule's scope needs, or a ref is malformed: caller bugs.
 */
import { createHash } from "node:crypto";
import { limitingAddress } from "./limitingAddress";
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
  concurrency: "c",
};

/** Algorithms whose state is a sorted set of their own per rule and subject, not a subject-key field. */
export function hasOwnKey(algorithm: Algorithm): boolean {
  return algorithm === "sliding_log" || algorithm === "concurrency";
}

const HASHED = "#";

const SCOPE_CHAR: Record<LimiterRule["scope"], string> = {
  key: "K",
  tenant: "T",
  ip: "I",
  identifier: "D",
  header: "H",
  query: "Q",
  descriptor: "E",
};

function compact(part: string): string {
  if (part.length > MAX_RAW_PART) return HASHED + createHash("sha256").update(part).digest("base64url").slice(0, 22);
  return part.startsWith(HASHED) ? HASHED + part : part;
}

function attributeValue(rule: Pick<LimiterRule, "attribute">, subject: Subject): string | undefined {
  return rule.attribute ? subject.attributes?.[rule.attribute.id] : undefined;
}

function required(rule: Pick<LimiterRule, "scope" | "name">, value: string | undefined, what: string): string {
  if (!value) throw new Error(`rule "${rule.name}" has scope ${rule.scope} but the subject has no ${what}`);
  return compact(value);
}

/** The subject of overflow counter `n` (see the header): `#~<n>`. */
export function overflowSubject(n: number): string {
  return `${HASHED}~${n}`;
}

type SubjectRule = Pick<LimiterRule, "scope" | "name" | "attribute" | "descriptorSlot"> & { ref?: string };

/**
 * Where a rule's overflow counter sits in `Subject.overflow`: its ref, or for a descriptor rule its
 * slot (one rule may count several descriptors of one call, each with its own value).
 */
export function overflowId(rule: { ref?: string; descriptorSlot?: string }): string | undefined {
  return rule.descriptorSlot ?? rule.ref;
}

export function subjectPart(rule: SubjectRule, subject: Subject): string {
  const id = subject.overflow ? overflowId(rule) : undefined;
  const overflow = id !== undefined ? subject.overflow![id] : undefined;
  if (overflow !== undefined) return SCOPE_CHAR[rule.scope] + overflowSubject(overflow);
  switch (rule.scope) {
    case "key":
      return "K" + required(rule, subject.keyId, "keyId");
    case "tenant":
      return "T";
    case "ip":
      // Per /64 for IPv6 (lib/limiter/limitingAddress.ts).
      return "I" + required(rule, subject.ip === undefined ? undefined : limitingAddress(subject.ip), "ip");
    case "identifier":
      return "D" + required(rule, subject.identifier, "identifier");
    case "header":
      return "H" + required(rule, attributeValue(rule, subject), `value of header ${rule.attribute?.name}`);
    case "query":
      return "Q" + required(rule, attributeValue(rule, subject), `value of query parameter ${rule.attribute?.name}`);
    case "descriptor":
      return (
        "E" +
        required(
          rule,
          rule.descriptorSlot === undefined ? undefined : subject.attributes?.[rule.descriptorSlot],
          "descriptor subject",
        )
      );
  }
}

/** The hash-tagged key prefix of one tenant; every key of the tenant starts with it. */
export function tenantKeyPrefix(prefix: string, tenantId: string): string {
  const known = tenantPrefixes.get(tenantId);
  if (known !== undefined && known.startsWith(prefix) && known.length === prefix.length + tenantId.length + 2)
    return known;
  if (!TENANT_ID.test(tenantId)) throw new Error(`invalid tenant id for a Redis key: ${JSON.stringify(tenantId)}`);
  const built = `${prefix}{${tenantId}}`;
  // Checked once per tenant, not per decision (bounded: cleared past MAX_TENANT_PREFIXES).
  if (tenantPrefixes.size >= MAX_TENANT_PREFIXES) tenantPrefixes.clear();
  tenantPrefixes.set(tenantId, built);
  return built;
}

const MAX_TENANT_PREFIXES = 10_000;
const tenantPrefixes = new Map<string, string>();

/** Marks a subject key (a digit: a rule's own key has its lower-case algorithm char here). */
const SUBJECT_LAYOUT = "2";

/** Rules whose ref was checked already (rules are long-lived objects: see ruleSpec.ts). */
const checkedRefs = new WeakSet<LimiterRule>();

function checkedRef(rule: LimiterRule): string {
  if (!checkedRefs.has(rule)) {
    if (!REF.test(rule.ref)) throw new Error(`invalid rule ref for a Redis key: ${JSON.stringify(rule.ref)}`);
    checkedRefs.add(rule);
  }
  return rule.ref;
}

/** The Redis key holding `rule`'s state for `subject`: its subject key, or its sorted set (sliding_log, concurrency). */
export function counterKey(prefix: string, rule: LimiterRule, subject: Subject): string {
  const ref = checkedRef(rule);
  const tenant = tenantKeyPrefix(prefix, subject.tenantId);
  if (hasOwnKey(rule.algorithm)) return `${tenant}${ALGORITHM_CHAR[rule.algorithm]}${ref}${subjectPart(rule, subject)}`;
  return `${tenant}${SUBJECT_LAYOUT}${subjectPart(rule, subject)}`;
}

/** The rule's field in its subject key; "" for sliding_log and concurrency (their sorted set is their own). */
export function counterField(rule: LimiterRule): string {
  if (hasOwnKey(rule.algorithm)) return "";
  return ALGORITHM_CHAR[rule.algorithm] + checkedRef(rule);
}

/**
 * The key holding `rule`'s penalty (blockMs) for `subject`: the subject key, whatever the algorithm
 * (for sliding_log, the subject key beside its sorted set), so a penalty costs no key of its own.
 */
export function penaltyKey(prefix: string, rule: LimiterRule, subject: Subject): string {
  return `${tenantKeyPrefix(prefix, subject.tenantId)}${SUBJECT_LAYOUT}${subjectPart(rule, subject)}`;
}

/**
 * The rule's penalty field in its subject key: `b<ref>` (`b` is no algorithm char, so it cannot
 * meet a counter field), "" for a rule without a penalty. Kept per ref, not per algorithm: a
 * penalty outlives an edit of the rule's algorithm.
 */
export function penaltyField(rule: LimiterRule): string {
  return rule.blockMs > 0 ? PENALTY_CHAR + checkedRef(rule) : "";
}

const PENALTY_CHAR = "b";

/** One rule's state, named by its key and field (a field never holds a newline). */
export function stateId(key: string, field: string): string {
  return field === "" ? key : key + "\n" + field;
}
