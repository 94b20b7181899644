/**
 * Limiter core types.
 *
 * Contract: a decision is a value. `allowed: false` means a limit refused the request; it is never
 * signalled by throwing. Infrastructure failures (Redis down, timeout) surface as `LimiterUnavailableError`
 * inside the core and are turned into per-rule outcomes by each rule's `failMode` in `decide`.
 */

import type { CalendarPeriod } from "./calendar";

/** The rate algorithms: each counts units per window (or refill time). */
export const ALGORITHMS = ["fixed_window", "sliding_log", "sliding_window", "token_bucket", "gcra"] as const;
/**
 * Every algorithm a rule may have: the rate algorithms and `concurrency` (requests in flight per
 * subject, held as leases: lib/limiter/algorithms/concurrency.ts). Kept apart because concurrency
 * counts no window: code that iterates rate algorithms (tests, benchmarks) uses ALGORITHMS.
 */
export const RULE_ALGORITHMS = [...ALGORITHMS, "concurrency"] as const;
export type Algorithm = (typeof RULE_ALGORITHMS)[number];
/** The algorithms with a capacity, `burst`; the others ignore it (the form shows the field only for these). */
export const BURST_ALGORITHMS: readonly Algorithm[] = ["token_bucket", "gcra"];

export const SCOPES = ["key", "tenant", "ip", "identifier", "header", "query", "descriptor"] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes that charge per value of a request attribute (a header, a query parameter). */
export const ATTRIBUTE_SCOPES = ["header", "query"] as const;
export type AttributeScope = (typeof ATTRIBUTE_SCOPES)[number];

/** What a `header`/`query` rule does when the request lacks its attribute (or sends it empty). */
export const ON_MISSING = ["skip", "refuse"] as const;
export type OnMissing = (typeof ON_MISSING)[number];

/** The request attribute a `header`/`query` rule is keyed by. */
export interface RuleAttribute {
  source: AttributeScope;
  /** The header name (lower case) or query parameter name (as written). */
  name: string;
  onMissing: OnMissing;
  /** `<source>:<name>`: where the attribute's value sits in `Subject.attributes`. */
  id: string;
}

export const FAIL_MODES = ["open", "closed", "local"] as const;
export type FailMode = (typeof FAIL_MODES)[number];

export const RULE_MODES = ["enforce", "shadow"] as const;
export type RuleMode = (typeof RULE_MODES)[number];

/** HTTP status classes a rule charged by response (`chargeOn`) may list. */
export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** The numeric parameters an algorithm needs; everything else about a rule is routing. */
export interface LimitParams {
  algorithm: Algorithm;
  limit: number;
  /**
   * The window; for token_bucket and gcra the refill time; for concurrency the lease length; for a
   * calendar rule (`period`) its period's longest length (lib/limiter/calendar.ts PERIOD_MAX_MS).
   */
  windowMs: number;
  /** Capacity for token_bucket and gcra; ignored by the window algorithms. */
  burst: number;
  /** fixed_window only: count per calendar period instead of per windowMs (lib/limiter/calendar.ts). */
  period?: CalendarPeriod;
}

/** The units a rule holds when whole: its bucket (`burst`) for token_bucket and gcra, its window's `limit` otherwise. */
export function capacityOf(params: Pick<LimitParams, "algorithm" | "limit" | "burst">): number {
  return BURST_ALGORITHMS.includes(params.algorithm) ? params.burst : params.limit;
}

/** A rule as the limiter sees it: already resolved for one request (owner merged, match filtered). */
export interface LimiterRule extends LimitParams {
  name: string;
  /**
   * Stable identity of the rule's counters, unique within the tenant (e.g. `per-key` for a tenant
   * rule, `per-key@<keyId>` for a key override). Part of the Redis key.
   */
  ref: string;
  scope: Scope;
  cost: number;
  /**
   * Penalty (ms): once this rule refuses a subject, every request of that subject the rule applies
   * to is refused for this long, whatever the counter says (lib/limiter/algorithms/penalty.ts). 0: none.
   */
  blockMs: number;
  /**
   * Count by response (rule field chargeOn): the status classes whose responses count. Reserved
   * (consumed) at admission like any rule, and given back once the response's status is known not
   * to be listed (Limiter.giveBack, lib/dataplane/admission/chargeByResponse.ts). Undefined: every
   * admitted request counts.
   */
  chargeOn?: readonly StatusClass[];
  failMode: FailMode;
  mode: RuleMode;
  /** Set exactly for the `header` and `query` scopes. */
  attribute?: RuleAttribute;
  /**
   * Scope `descriptor` (Envoy's rate limit service, lib/dataplane/envoy): where the rule's subject
   * for one descriptor of a call sits in `Subject.attributes`. Set only on the per-call rule the
   * service derives from a compiled one (lib/dataplane/envoy/descriptorRules.ts); the counters are
   * the compiled rule's (same ref).
   */
  descriptorSlot?: string;
}

/** Who is making the request; each rule picks the part its scope charges. */
export interface Subject {
  tenantId: string;
  /** The `key` scope's subject: an API key id, or `~<sub>` for a JWT caller (lib/limiter/keys.ts). */
  keyId?: string;
  ip?: string;
  identifier?: string;
  /**
   * Values of the request attributes that `header`/`query` rules charge, by `RuleAttribute.id`
   * (already bounded: lib/dataplane/admission/requestAttributes.ts); and the subjects of
   * `descriptor` rules, by `LimiterRule.descriptorSlot`, one per rule and descriptor of a call.
   */
  attributes?: Readonly<Record<string, string>>;
  /**
   * Rules whose value is over the tenant's subject budget on this instance, by rule ref: each
   * counts this request on the shared overflow counter numbered here instead of the value's own
   * (lib/limiter/subjectBudget.ts; the key in lib/limiter/keys.ts).
   */
  overflow?: Readonly<Record<string, number>>;
}

/** One rule's verdict within a decision. All times are milliseconds from the decision's `now`. */
export interface RuleResult {
  rule: LimiterRule;
  /** This rule alone would admit the request. For shadow rules false means "would refuse". */
  allowed: boolean;
  limit: number;
  /** Units left after this decision (after consumption if the request was admitted). */
  remaining: number;
  /** Until the rule is whole again (nothing consumed). */
  resetMs: number;
  /** Until this request would pass this rule; 0 when it passes now. */
  retryAfterMs: number;
  /** Until the rule next gives at least one unit back; 0 when nothing is consumed. */
  nextMs: number;
  /** Refused (or, for a shadow rule, would be) because a penalty of the rule was in force already. */
  penalized?: boolean;
  /** How this result was produced: Redis, the local refusal cache, or a fail mode. */
  source: "redis" | "cache" | "fail_open" | "fail_closed" | "fail_local";
}

/**
 * Slots a request holds under its concurrency rules: one lease id (a member of each key's sorted
 * set) and the keys it was taken in. Given back once by Limiter.release when the request is over.
 */
export interface Lease {
  id: string;
  keys: string[];
  /** The rules that hold it, for metrics and logs. */
  rules: LimiterRule[];
}

export interface Decision {
  /** True when no enforce rule refused and the limiter was not unavailable under a `closed` rule. */
  allowed: boolean;
  /** Refused because Redis could not answer and a `closed` rule applies (maps to 503). */
  unavailable: boolean;
  /** Until the request would pass every refusing enforce rule; 0 when allowed. */
  retryAfterMs: number;
  /** Epoch ms the decision was made at (Redis time unless passed in). */
  nowMs: number;
  results: RuleResult[];
  /** Slots taken by the request's concurrency rules (admitted, at least one such rule): release them. */
  lease?: Lease;
}

// Raised by the Redis deadline (lib/redis/deadline.ts), below the limiter; handed on as the limiter's own.
export { LimiterUnavailableError, type UnavailableKind } from "../redis/unavailableError";
