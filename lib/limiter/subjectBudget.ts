/**
 * The subject budget (SLUICE_SUBJECT_BUDGET): how many distinct values one rule of a scope whose
 * subjects the caller chooses (`header`, `query`, `identifier`, and `descriptor`: the values Envoy
 * sends, such as a client's address or a header) may count on counters of their own,
 * per tenant. Every such value is a Redis key; without a bound a client sending a fresh
 * `X-User-Id` per request fills a shared `noeviction` Redis, and then every tenant is in its fail mode.
 *
 * Contract
 * - `fold(rules, subject)`: for each budgeted rule, a value this instance holds for the rule keeps
 *   its own counter; a new value is held (reserved) while the rule holds fewer than `budget`
 *   values; past that the value is FOLDED: the rule counts it on one of `overflowCounters` shared
 *   counters (picked by a hash of the value, the same on every instance), named in
 *   `Subject.overflow`. A folded client is still limited (each overflow counter has the rule's limit),
 *   and Redis holds a bounded number of keys. Nothing is refused for being over the budget.
 * - `settle(plan, decision)`: a value reserved by a request that wrote nothing to Redis for that
 *   rule (refused, answered by the refusal cache or a fail mode, or failed) is given back, once no
 *   other request in flight holds it.
 * - Bound: a value stays held until its subject key has expired: two generations of held values,
 *   each at least as long as the rule's key lifetime (`subjectKeyLifetimeMs`). So with N instances
 *   a rule's subject keys in Redis number at most N x budget + overflowCounters, per tenant.
 *   This instance's memory: at most `budget` strings of at most 66 characters per (tenant, rule)
 *   that meets traffic; trackers of rules that saw none for two lifetimes are dropped.
 * - Scopes `key`, `tenant` and `ip` are not budgeted: keys are issued by operators, and an `ip`
 *   subject is the client's address (per /64 for IPv6), not text the client writes.
 * - Time: this process's clock (injected in tests); it only ages the values held.
 */
import { overflowId, subjectPart } from "./keys";
import type { Decision, LimiterRule, Scope, Subject } from "./types";

/** Overflow counters per rule and tenant, at most (fewer when the budget is smaller). */
export const MAX_OVERFLOW_COUNTERS = 64;
/** How often trackers of rules without traffic are looked for. */
const SWEEP_EVERY_MS = 60_000;

const BUDGETED: ReadonlySet<Scope> = new Set<Scope>(["header", "query", "identifier", "descriptor"]);

export function isBudgetedScope(scope: Scope): boolean {
  return BUDGETED.has(scope);
}

/**
 * How long a subject key written by `rule` lives at most (its TTL in decide.lua): a window
 * (two for sliding_window), the time an emptied bucket takes to refill (token_bucket, gcra),
 * or the penalty, whichever is longest; plus the rounding of TTLs up to 3 significant digits.
 */
export function subjectKeyLifetimeMs(
  rule: Pick<LimiterRule, "algorithm" | "windowMs" | "limit" | "burst" | "blockMs">,
): number {
  const state =
    rule.algorithm === "sliding_window"
      ? 2 * rule.windowMs
      : rule.algorithm === "token_bucket" || rule.algorithm === "gcra"
        ? Math.ceil((rule.windowMs * Math.max(rule.burst, rule.limit)) / rule.limit)
        : rule.windowMs;
  return Math.ceil(Math.max(state, rule.blockMs) * 1.01) + 1_000;
}

/** The values one rule of one tenant holds on this instance. */
interface Tracker {
  current: Set<string>;
  previous: Set<string>;
  /** When `current` began. */
  since: number;
  lifetimeMs: number;
  /** For the usage gauge: the rule's name and scope when last seen. */
  name: string;
  scope: Scope;
  /** Values reserved by requests in flight: how many hold each, and whether one wrote it. */
  pending: Map<string, { holders: number; wrote: boolean }>;
}

interface Reservation {
  tracker: Tracker;
  value: string;
  /** The rule's index in the decision's rules (its result's index). */
  index: number;
}

/** What `fold` decided: the subject to decide with, and the reservations to settle. */
export interface FoldPlan {
  subject: Subject;
  reservations?: Reservation[];
}

export interface SubjectBudgetOptions {
  /** Distinct values per rule and tenant on this instance (SLUICE_SUBJECT_BUDGET: lib/config/config.ts). */
  budget: number;
  clock?: () => number;
  /** Told about every request a rule folded. Must not throw. */
  onFold?: (rule: LimiterRule) => void;
}

/** FNV-1a over UTF-16 units: the same overflow counter for a value on every instance. */
function overflowIndex(value: string, counters: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % counters;
}

export class SubjectBudget {
  readonly budget: number;
  readonly overflowCounters: number;
  private readonly clock: () => number;
  private readonly onFold?: (rule: LimiterRule) => void;
  private readonly trackers = new Map<string, Tracker>();
  private lastSweep: number;

  constructor(options: SubjectBudgetOptions) {
    this.budget = options.budget;
    if (!Number.isInteger(this.budget) || this.budget < 1) throw new Error("the subject budget must be at least 1");
    this.overflowCounters = Math.min(MAX_OVERFLOW_COUNTERS, this.budget);
    this.clock = options.clock ?? Date.now;
    this.onFold = options.onFold;
    this.lastSweep = this.clock();
  }

  /** See the contract. `reserve` false (peek): decides without holding a new value. */
  fold(rules: LimiterRule[], subject: Subject, reserve = true): FoldPlan {
    let now: number | undefined;
    let overflow: Record<string, number> | undefined;
    let reservations: Reservation[] | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      if (!BUDGETED.has(rule.scope)) continue;
      now ??= this.now();
      const value = subjectPart(rule, subject);
      const tracker = this.tracker(subject.tenantId, rule, now);
      const pending = tracker.pending.get(value);
      if (pending) {
        // Reserved by a request still in flight: this one holds it too until it settles.
        if (reserve) {
          pending.holders++;
          (reservations ??= []).push({ tracker, value, index: i });
        }
      } else if (tracker.current.has(value)) {
        // held
      } else if (tracker.previous.delete(value)) {
        tracker.current.add(value);
      } else if (tracker.current.size + tracker.previous.size < this.budget) {
        if (reserve) {
          tracker.current.add(value);
          tracker.pending.set(value, { holders: 1, wrote: false });
          (reservations ??= []).push({ tracker, value, index: i });
        }
      } else {
        (overflow ??= {})[overflowId(rule)!] = overflowIndex(value, this.overflowCounters);
        this.onFold?.(rule);
      }
    }
    const folded = overflow ? { ...subject, overflow } : subject;
    return reservations ? { subject: folded, reservations } : { subject: folded };
  }

  /** See the contract; `decision` undefined: the decision failed (nothing written). */
  settle(plan: FoldPlan, decision: Decision | undefined): void {
    for (const { tracker, value, index } of plan.reservations ?? []) {
      const pending = tracker.pending.get(value);
      if (!pending) continue;
      const result = decision?.results[index];
      // Written: the request was admitted (every rule's state is stored), or this rule refused it
      // and started a penalty, which is stored even so.
      if (result?.source === "redis" && (decision!.allowed || (!result.allowed && result.rule.blockMs > 0)))
        pending.wrote = true;
      if (--pending.holders > 0) continue;
      tracker.pending.delete(value);
      if (!pending.wrote) tracker.current.delete(value);
    }
  }

  /** Per rule name and scope, the fullest tracker's share of the budget (0 .. 1), for the usage gauge. */
  usage(): { rule: string; scope: Scope; ratio: number }[] {
    const fullest = new Map<string, { rule: string; scope: Scope; ratio: number }>();
    for (const tracker of this.trackers.values()) {
      const ratio = (tracker.current.size + tracker.previous.size) / this.budget;
      const id = `${tracker.scope}\n${tracker.name}`;
      const known = fullest.get(id);
      if (!known || known.ratio < ratio) fullest.set(id, { rule: tracker.name, scope: tracker.scope, ratio });
    }
    return [...fullest.values()];
  }

  /** Values held for one rule of one tenant (tests, diagnostics). */
  held(tenantId: string, ref: string): number {
    const tracker = this.trackers.get(`${tenantId}\n${ref}`);
    return tracker ? tracker.current.size + tracker.previous.size : 0;
  }

  private now(): number {
    const now = this.clock();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) this.sweep(now);
    return now;
  }

  private tracker(tenantId: string, rule: LimiterRule, now: number): Tracker {
    const id = `${tenantId}\n${rule.ref}`;
    const lifetimeMs = subjectKeyLifetimeMs(rule);
    let tracker = this.trackers.get(id);
    if (!tracker) {
      tracker = {
        current: new Set(),
        previous: new Set(),
        since: now,
        lifetimeMs,
        name: rule.name,
        scope: rule.scope,
        pending: new Map(),
      };
      this.trackers.set(id, tracker);
      return tracker;
    }
    tracker.name = rule.name;
    tracker.scope = rule.scope;
    // A longer lifetime takes effect at once; a shorter one only once the values of the longer are gone.
    if (lifetimeMs > tracker.lifetimeMs || (tracker.previous.size === 0 && tracker.current.size === 0))
      tracker.lifetimeMs = lifetimeMs;
    const age = now - tracker.since;
    if (age >= tracker.lifetimeMs) {
      // Every value of `previous` was last used over one lifetime before `current` began: its key is gone.
      tracker.previous = age >= 2 * tracker.lifetimeMs ? new Set() : tracker.current;
      tracker.current = new Set();
      tracker.since = now;
      // Values still reserved stay in `current` (their requests settle against it).
      for (const value of tracker.pending.keys()) {
        tracker.previous.delete(value);
        tracker.current.add(value);
      }
    }
    return tracker;
  }

  /** Drops the trackers whose values are all gone (rules and tenants without traffic, or deleted). */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [id, tracker] of this.trackers)
      if (tracker.pending.size === 0 && now - tracker.since >= 2 * tracker.lifetimeMs) this.trackers.delete(id);
  }
}
