/**
 * The limiter: `decide` and `peek` over the rules that apply to one request.
 *
 * Contract
 * - One atomic evaluation (lua/decide.lua) over every rule; quota is consumed only when every
 *   enforce rule allows. Concurrent decisions share script calls (see decideBatcher.ts). Shadow rules report "would refuse" (`allowed: false`) and never refuse.
 * - A refusal is a value: `{ allowed: false, ... }`. Nothing here throws for a limit.
 * - Redis errors, malformed replies and timeouts never escape `decide`: each rule's failMode turns
 *   them into a result (`open` allows, `closed` refuses with `unavailable: true`, `local` enforces in
 *   memory). The deadline counts Redis's lateness, not the event loop's (lib/redis/deadline.ts): a
 *   decision waits at most 2 x `timeoutMs` plus this process's event-loop lag.
 * - `peek` reads without consuming: each rule's remaining quota, and whether (`allowed`) and when
 *   (`retryAfterMs`) a request of the rule's cost would pass. It throws `LimiterUnavailableError`
 *   when Redis cannot answer.
 * - Time: Redis TIME, unless `nowMs` is passed (tests, simulation) or `timeSource` is `app`.
 *   With `nowMs`, keys live at least EXPLICIT_TIME_TTL_FLOOR_MS of real time: a TTL computed in
 *   simulated time would expire state in the middle of a replayed sequence. The caller owns that
 *   key space (a test prefix, the simulator's) and deletes it.
 * - Requests whose refusal is already known (refusal cache) are answered without Redis.
 * - Concurrency rules: an admitted request's decision carries a `lease` (the slots it took, in the
 *   same atomic call); `release(lease)` gives them back (lua/release.lua) and must be called once
 *   the request is over. It never throws: a lease it cannot give back expires (windowMs).
 * - Count by response (rule field chargeOn): `decide(..., { hold: true })` checks such rules without
 *   consuming them (the other rules as usual, in the same atomic call; a refusal by a held rule
 *   refuses and starts its penalty as usual). `charge` consumes them once the response's status is
 *   known (lib/dataplane/admission/chargeByResponse.ts): no refusal cache, and a refusal only means no quota
 *   was left (nothing consumed); it throws `LimiterUnavailableError` when Redis cannot answer.
 */
import { counterKey, legacyCounterKey, penaltyKey } from "./keys";
import { EMPTY, failModeDecisionOf } from "./failModeDecision";
import { decideScriptSource } from "./decideScript";
import { newLeaseId, releaseScriptSource, runReleaseScript } from "./releaseScript";
import { DecideBatcher, type BatchedRequest } from "./decideBatcher";
import { decisionFromReply } from "./parseDecideReply";
import { ruleSpec } from "./ruleSpec";
import type { RedisClient } from "../redis/connect";
import type { LocalLimiter } from "./localLimiter";
import { refusalFingerprint, type RefusalCache } from "./refusalCache";
import { LimiterUnavailableError, type Decision, type Lease, type LimiterRule, type Subject } from "./types";

export interface LimiterDeps {
  redis: RedisClient;
  prefix: string;
  timeoutMs: number;
  timeSource?: "redis" | "app";
  /** This process's clock (ms); injected in tests. */
  clock?: () => number;
  refusals?: RefusalCache;
  local?: LocalLimiter;
  /** Requests per script call (decideBatcher.ts MAX_BATCH unless given; the simulator sends more). */
  maxBatch?: number;
  /**
   * Rolling upgrade from the per-rule key layout (SLUICE_LEGACY_COUNTER_KEYS): each rule's state is
   * also read from its per-rule key (the more advanced of the two counts) and written to both, so
   * instances of the earlier version, which know only those keys, share every limit exactly.
   */
  legacyKeys?: boolean;
  /**
   * Rolling upgrade from versions that read subject keys only as "<field>=<state>" entries
   * (SLUICE_TEXT_SUBJECT_VALUES): never write a one-field key as one integer (lua/includes/preamble.lua).
   */
  textSubjectValues?: boolean;
  /** Told about Redis failures and fail-mode use (metrics, logs). Must not throw. */
  onUnavailable?: (error: LimiterUnavailableError, rules: LimiterRule[]) => void;
}

/** Real-time lifetime, at least, of keys written with explicit time (see decide.lua). */
export const EXPLICIT_TIME_TTL_FLOOR_MS = 600_000;

export interface DecideOptions {
  /** Explicit time (epoch ms) instead of Redis TIME: tests and simulation. Bypasses the refusal cache. */
  nowMs?: number;
  /** Check rules charged by response (chargeOn) without consuming them (see the contract above). */
  hold?: boolean;
}

export interface Limiter {
  decide(rules: LimiterRule[], subject: Subject, options?: DecideOptions): Promise<Decision>;
  peek(rules: LimiterRule[], subject: Subject, options?: DecideOptions): Promise<Decision>;
  /** Gives a decision's lease back; resolves to how many of its slots were still held (the rest had expired), or null when Redis could not answer. */
  release(lease: Lease, options?: DecideOptions): Promise<number | null>;
  charge(rules: LimiterRule[], subject: Subject, options?: Pick<DecideOptions, "nowMs">): Promise<Decision>;
  /**
   * Two decisions, the second made only if the first allowed: `[first, second]`, `second`
   * undefined when the first refused (then nothing of it is charged). As `decide(rules, subject,
   * options)` then `decide(then.rules, then.subject, { nowMs })`, in ONE script call when both go to Redis.
   */
  decideThen(
    rules: LimiterRule[],
    subject: Subject,
    options: DecideOptions,
    then: { rules: LimiterRule[]; subject: Subject },
  ): Promise<[Decision, Decision | undefined]>;
}

/** A sliding_log rule with a penalty keeps the penalty in a second key (see decide.lua). */
function slidingLogWithPenalty(rule: LimiterRule): boolean {
  return rule.algorithm === "sliding_log" && rule.blockMs > 0;
}

export function createLimiter(deps: LimiterDeps): Limiter {
  const clock = deps.clock ?? Date.now;
  // Load the script now: a missing or broken file is a deploy error that must fail loudly at
  // start-up, not be mistaken for an unavailable Redis (which would fail every rule open).
  decideScriptSource();
  releaseScriptSource();

  const batcher = new DecideBatcher(deps.redis, deps.timeoutMs, deps.maxBatch, deps.textSubjectValues);
  const clustered = deps.redis.isCluster;

  /** One request's part of a script call. */
  function batched(
    rules: LimiterRule[],
    keys: string[],
    subject: Subject,
    options: DecideOptions,
    commit: boolean,
  ): BatchedRequest {
    const ttlFloorMs = options.nowMs === undefined ? 0 : EXPLICIT_TIME_TTL_FLOOR_MS;
    const specs = rules.map((rule) => ruleSpec(rule, commit, options.hold === true));
    const secondKeys = secondKeysOf(rules, subject);
    const lease = commit && rules.some((rule) => rule.algorithm === "concurrency") ? newLeaseId() : "";
    return { keys, now: timeArg(options), commit, lease, ttlFloorMs, specs, ...(secondKeys ? { secondKeys } : {}) };
  }

  async function callScript(
    rules: LimiterRule[],
    keys: string[],
    subject: Subject,
    options: DecideOptions,
    commit: boolean,
  ): Promise<Decision> {
    // On a Cluster a call must stay within one slot: batch per tenant. On one node, batch all.
    const group = clustered ? subject.tenantId : "";
    const request = batched(rules, keys, subject, options, commit);
    return decisionFromReply(rules, keys, request.lease ?? "", await batcher.submit(group, request));
  }

  /** Per rule its second key (see decide.lua), or undefined when no rule has one (no array built). */
  function secondKeysOf(rules: LimiterRule[], subject: Subject): string[] | undefined {
    if (!deps.legacyKeys && !rules.some(slidingLogWithPenalty)) return undefined;
    return rules.map((rule) => {
      if (slidingLogWithPenalty(rule)) return penaltyKey(deps.prefix, rule, subject);
      return deps.legacyKeys ? legacyCounterKey(deps.prefix, rule, subject) : "";
    });
  }

  /** The script's time argument: explicit time, this process's clock in app-time mode, or "" for Redis TIME. */
  function timeArg(options: DecideOptions): string {
    if (options.nowMs !== undefined) return String(options.nowMs);
    return deps.timeSource === "app" ? String(clock()) : "";
  }

  function failModeDecision(rules: LimiterRule[], keys: string[], subject: Subject, hold: boolean): Decision {
    return failModeDecisionOf(rules, keys, subject, hold, { prefix: deps.prefix, local: deps.local, nowMs: clock() });
  }

  /** A refusal of this request the refusal cache holds, if any (the fingerprint is built only when one of the tenant's is held: most decisions are admitted). */
  function cachedRefusal(
    rules: LimiterRule[],
    keys: string[],
    subject: Subject,
    options: DecideOptions,
  ): Decision | undefined {
    const refusals = options.nowMs === undefined ? deps.refusals : undefined;
    if (!refusals?.holdsTenant(subject.tenantId)) return undefined;
    return refusals.get(refusalFingerprint(rules, keys, options.hold), clock());
  }

  function remember(
    rules: LimiterRule[],
    keys: string[],
    subject: Subject,
    options: DecideOptions,
    decision: Decision,
  ): void {
    const refusals = options.nowMs === undefined ? deps.refusals : undefined;
    if (refusals && !decision.allowed)
      refusals.remember(subject.tenantId, refusalFingerprint(rules, keys, options.hold), decision, clock());
  }

  const limiter: Limiter = {
    async decideThen(rules, subject, options, then) {
      const keys = rules.map((rule) => counterKey(deps.prefix, rule, subject));
      const thenKeys = then.rules.map((rule) => counterKey(deps.prefix, rule, then.subject));
      // One call only pays when both need Redis and share a Cluster slot; otherwise one after the other.
      const oneCall =
        rules.length > 0 && then.rules.length > 0 && (!clustered || subject.tenantId === then.subject.tenantId);
      const thenOptions: DecideOptions = options.nowMs === undefined ? {} : { nowMs: options.nowMs };
      if (
        !oneCall ||
        cachedRefusal(rules, keys, subject, options) ||
        cachedRefusal(then.rules, thenKeys, then.subject, thenOptions)
      ) {
        const first = await limiter.decide(rules, subject, options);
        return [first, first.allowed ? await limiter.decide(then.rules, then.subject, thenOptions) : undefined];
      }
      const request = batched(rules, keys, subject, options, true);
      const thenRequest = batched(then.rules, thenKeys, then.subject, thenOptions, true);
      let first: Decision;
      let second: Decision | undefined;
      try {
        const [parsed, thenParsed] = await batcher.submitChained(
          clustered ? subject.tenantId : "",
          request,
          thenRequest,
        );
        first = decisionFromReply(rules, keys, request.lease ?? "", parsed);
        remember(rules, keys, subject, options, first);
        // The second committed only if the first did; a first refusal leaves it unevaluated.
        if (!first.allowed) return [first, undefined];
        second = decisionFromReply(then.rules, thenKeys, thenRequest.lease ?? "", thenParsed);
        remember(then.rules, thenKeys, then.subject, thenOptions, second);
        return [first, second];
      } catch (error) {
        if (!(error instanceof LimiterUnavailableError)) throw error;
        // Each decision as `decide` makes it when Redis cannot answer: its rules' fail modes.
        deps.onUnavailable?.(error, rules);
        first = failModeDecision(rules, keys, subject, options.hold === true);
        if (!first.allowed) return [first, undefined];
        deps.onUnavailable?.(error, then.rules);
        return [first, failModeDecision(then.rules, thenKeys, then.subject, false)];
      }
    },

    async decide(rules, subject, options = {}) {
      if (rules.length === 0) return EMPTY(options.nowMs ?? clock());
      const keys = rules.map((rule) => counterKey(deps.prefix, rule, subject));
      const cached = cachedRefusal(rules, keys, subject, options);
      if (cached) return cached;
      try {
        const decision = await callScript(rules, keys, subject, options, true);
        remember(rules, keys, subject, options, decision);
        return decision;
      } catch (error) {
        if (!(error instanceof LimiterUnavailableError)) throw error;
        deps.onUnavailable?.(error, rules);
        return failModeDecision(rules, keys, subject, options.hold === true);
      }
    },

    async peek(rules, subject, options = {}) {
      if (rules.length === 0) return EMPTY(options.nowMs ?? clock());
      const keys = rules.map((rule) => counterKey(deps.prefix, rule, subject));
      return callScript(rules, keys, subject, options, false);
    },

    async release(lease, options = {}) {
      try {
        return await runReleaseScript(
          deps.redis,
          lease,
          deps.timeoutMs,
          options.nowMs ?? (deps.timeSource === "app" ? clock() : undefined),
        );
      } catch (error) {
        deps.onUnavailable?.(
          error instanceof LimiterUnavailableError
            ? error
            : new LimiterUnavailableError((error as Error).message, { cause: error }),
          lease.rules,
        );
        return null;
      }
    },

    async charge(rules, subject, options = {}) {
      if (rules.length === 0) return EMPTY(options.nowMs ?? clock());
      const keys = rules.map((rule) => counterKey(deps.prefix, rule, subject));
      return callScript(rules, keys, subject, { ...options, hold: false }, true);
    },
  };
  return limiter;
}
