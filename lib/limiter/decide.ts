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
 * - Count by response (rule field chargeOn): such rules are reserved at admission like any rule
 *   (consumed by `decide`, so at most `limit` units are in flight or spent per window however many
 *   requests run at once). `giveBack` undoes an admitted decision's reservation of some of them once
 *   the answer's class is known not to be listed (lib/dataplane/admission/chargeByResponse.ts): in
 *   Redis (lua/give_back.lua) or, for a reservation made in memory (failMode local), in the local
 *   limiter; into the window it was reserved in, or not at all (lib/limiter/giveBackScript.ts). It
 *   throws `LimiterUnavailableError` when Redis cannot answer (the reservation stays charged).
 */
import { counterField, counterKey, penaltyKey, stateId } from "./keys";
import { EMPTY, failModeDecisionOf } from "./failModeDecision";
import { decideScript } from "./decideScript";
import { newLeaseId, releaseScript, runReleaseScript } from "./releaseScript";
import { giveBackScript, runGiveBackScript, type Reservation } from "./giveBackScript";
import { ALGORITHM_DEFS } from "./algorithms/registry";
import { DecideBatcher, type BatchedRequest } from "./decideBatcher";
import { decisionFromReply } from "./parseDecideReply";
import { ruleSpec } from "./ruleSpec";
import type { RedisClient } from "../redis/connect";
import type { LocalLimiter } from "./localLimiter";
import { refusalFingerprint, type RefusalCache } from "./refusalCache";
import {
  BURST_ALGORITHMS,
  LimiterUnavailableError,
  type Decision,
  type Lease,
  type LimiterRule,
  type Subject,
} from "./types";

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
  /** Told about Redis failures and fail-mode use (metrics, logs). Must not throw. */
  onUnavailable?: (error: LimiterUnavailableError, rules: LimiterRule[]) => void;
}

/** Real-time lifetime, at least, of keys written with explicit time (see decide.lua). */
export const EXPLICIT_TIME_TTL_FLOOR_MS = 600_000;

export interface DecideOptions {
  /** Explicit time (epoch ms) instead of Redis TIME: tests and simulation. Bypasses the refusal cache. */
  nowMs?: number;
}

export interface Limiter {
  decide(rules: LimiterRule[], subject: Subject, options?: DecideOptions): Promise<Decision>;
  peek(rules: LimiterRule[], subject: Subject, options?: DecideOptions): Promise<Decision>;
  /** Gives a decision's lease back; resolves to how many of its slots were still held (the rest had expired), or null when Redis could not answer. */
  release(lease: Lease, options?: DecideOptions): Promise<number | null>;
  /**
   * Gives back what `reservation` (an admitted decision of `subject`) reserved under `rules` (some
   * of its rules): those it consumed, in Redis or in memory. Resolves to how many rules had units
   * given back (a window that rolled over gives nothing back); throws when Redis cannot answer.
   */
  giveBack(reservation: Decision, rules: LimiterRule[], subject: Subject, options?: DecideOptions): Promise<number>;
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
  decideScript.source();
  releaseScript.source();
  giveBackScript.source();

  const batcher = new DecideBatcher(deps.redis, deps.timeoutMs, deps.maxBatch);
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
    // A calendar rule's spec holds the bounds of the periods around this clock (ruleSpec.ts).
    const specNow = options.nowMs ?? clock();
    const specs = rules.map((rule) => ruleSpec(rule, specNow));
    const penaltyKeys = penaltyKeysOf(rules, subject);
    const lease = commit && rules.some((rule) => rule.algorithm === "concurrency") ? newLeaseId() : "";
    return { keys, now: timeArg(options), commit, lease, ttlFloorMs, specs, ...(penaltyKeys ? { penaltyKeys } : {}) };
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

  /** Per rule its penalty key if kept apart (see decide.lua) or "", or undefined when no rule has one (no array built). */
  function penaltyKeysOf(rules: LimiterRule[], subject: Subject): string[] | undefined {
    if (!rules.some(slidingLogWithPenalty)) return undefined;
    return rules.map((rule) => (slidingLogWithPenalty(rule) ? penaltyKey(deps.prefix, rule, subject) : ""));
  }

  /** The script's time argument: explicit time, this process's clock in app-time mode, or "" for Redis TIME. */
  function timeArg(options: DecideOptions): string {
    if (options.nowMs !== undefined) return String(options.nowMs);
    return deps.timeSource === "app" ? String(clock()) : "";
  }

  function failModeDecision(rules: LimiterRule[], keys: string[], subject: Subject): Decision {
    return failModeDecisionOf(rules, keys, subject, { prefix: deps.prefix, local: deps.local, nowMs: clock() });
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
    return refusals.get(refusalFingerprint(rules, keys), clock());
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
      refusals.remember(subject.tenantId, refusalFingerprint(rules, keys), decision, clock());
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
        first = failModeDecision(rules, keys, subject);
        if (!first.allowed) return [first, undefined];
        deps.onUnavailable?.(error, then.rules);
        return [first, failModeDecision(then.rules, thenKeys, then.subject)];
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
        return failModeDecision(rules, keys, subject);
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

    async giveBack(reservation, rules, subject, options = {}) {
      const inRedis: Reservation[] = [];
      let given = 0;
      for (const r of reservation.results) {
        const rule = r.rule;
        if (!r.allowed || rule.cost <= 0 || !rules.includes(rule) || !ALGORITHM_DEFS[rule.algorithm].model.giveBack)
          continue;
        const key = counterKey(deps.prefix, rule, subject);
        // The TAT the reservation left: its time plus the time until the bucket is full again.
        const tatUntilMs = BURST_ALGORITHMS.includes(rule.algorithm) ? reservation.nowMs + r.resetMs : 0;
        if (r.source === "redis") inRedis.push({ rule, key, tatUntilMs });
        else if (r.source === "fail_local" && deps.local) {
          const g = { reservedAtMs: reservation.nowMs, nowMs: options.nowMs ?? clock(), cost: rule.cost, tatUntilMs };
          if (deps.local.giveBack(rule, stateId(key, counterField(rule)), g)) given++;
        }
      }
      if (inRedis.length === 0) return given;
      const nowMs = options.nowMs ?? (deps.timeSource === "app" ? clock() : undefined);
      const flags = await runGiveBackScript(deps.redis, inRedis, reservation.nowMs, {
        timeoutMs: deps.timeoutMs,
        ...(nowMs === undefined ? {} : { nowMs }),
      });
      return given + flags.filter(Boolean).length;
    },
  };
  return limiter;
}
