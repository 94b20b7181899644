/**
 * The limiter: `decide` and `peek` over the rules that apply to one request.
 *
 * Contract
 * - One atomic evaluation (lua/decide.lua) over every rule; quota is consumed only when every
 *   enforce rule allows. Concurrent decisions share script calls (see decideBatcher.ts). Shadow rules report "would refuse" (`allowed: false`) and never refuse.
 * - A refusal is a value: `{ allowed: false, ... }`. Nothing here throws for a limit.
 * - Redis errors, malformed replies and timeouts never escape `decide`: each rule's failMode turns
 *   them into a result (`open` allows, `closed` refuses with `unavailable: true`, `local` enforces in
 *   memory). A decision never waits longer than `timeoutMs` plus timer jitter.
 * - `peek` reads without consuming: each rule's remaining quota, and whether (`allowed`) and when
 *   (`retryAfterMs`) a request of the rule's cost would pass. It throws `LimiterUnavailableError`
 *   when Redis cannot answer.
 * - Time: Redis TIME, unless `nowMs` is passed (tests, simulation) or `timeSource` is `app`.
 *   With `nowMs`, keys live at least EXPLICIT_TIME_TTL_FLOOR_MS of real time: a TTL computed in
 *   simulated time would expire state in the middle of a replayed sequence. The caller owns that
 *   key space (a test prefix, the simulator's) and deletes it.
 * - Requests whose refusal is already known (refusal cache) are answered without Redis.
 */
import { counterKey } from "./keys";
import { decideScriptSource } from "./decideScript";
import { DecideBatcher } from "./decideBatcher";
import { ruleSpec } from "./ruleSpec";
import type { RedisClient } from "../redis/connect";
import type { LocalLimiter } from "./localLimiter";
import type { RefusalCache } from "./refusalCache";
import { LimiterUnavailableError, type Decision, type LimiterRule, type RuleResult, type Subject } from "./types";

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
}

const EMPTY = (nowMs: number): Decision => ({ allowed: true, unavailable: false, retryAfterMs: 0, nowMs, results: [] });

/** A request can pass only once every refusing enforce rule lets it. */
export function summarize(results: RuleResult[], nowMs: number, unavailable = false): Decision {
  const refusing = results.filter((r) => r.rule.mode === "enforce" && !r.allowed);
  return {
    allowed: !unavailable && refusing.length === 0,
    unavailable,
    retryAfterMs: refusing.reduce((max, r) => Math.max(max, r.retryAfterMs), 0),
    nowMs,
    results,
  };
}

/**
 * What makes a refusal the same refusal: the counters and every rule's parameters. A rule change
 * therefore misses the cache by construction.
 */
function refusalFingerprint(rules: LimiterRule[], keys: string[]): string {
  let fingerprint = "";
  for (let i = 0; i < rules.length; i++) fingerprint += keys[i] + "#" + ruleSpec(rules[i]!, true).id + "|";
  return fingerprint;
}

export function createLimiter(deps: LimiterDeps): Limiter {
  const clock = deps.clock ?? Date.now;
  // Load the script now: a missing or broken file is a deploy error that must fail loudly at
  // start-up, not be mistaken for an unavailable Redis (which would fail every rule open).
  decideScriptSource();

  const batcher = new DecideBatcher(deps.redis, deps.timeoutMs, deps.maxBatch);
  const clustered = deps.redis.isCluster;

  async function callScript(rules: LimiterRule[], keys: string[], subject: Subject, options: DecideOptions, commit: boolean): Promise<Decision> {
    // On a Cluster a call must stay within one slot: batch per tenant. On one node, batch all.
    const group = clustered ? subject.tenantId : "";
    const ttlFloorMs = options.nowMs === undefined ? 0 : EXPLICIT_TIME_TTL_FLOOR_MS;
    const specs = rules.map((rule) => ruleSpec(rule, commit));
    const parsed = await batcher.submit(group, { keys, now: timeArg(options), commit, ttlFloorMs, specs });
    const results: RuleResult[] = parsed.rules.map((r, i) => ({
      rule: rules[i]!,
      allowed: r.allowed,
      limit: rules[i]!.limit,
      remaining: r.remaining,
      resetMs: r.resetMs,
      // -1: the cost exceeds the rule's capacity and can never pass; advise one window.
      retryAfterMs: r.retryAfterMs < 0 ? rules[i]!.windowMs : r.retryAfterMs,
      nextMs: r.nextMs,
      source: "redis",
    }));
    return summarize(results, parsed.nowMs);
  }

  /** The script's time argument: explicit time, this process's clock in app-time mode, or "" for Redis TIME. */
  function timeArg(options: DecideOptions): string {
    if (options.nowMs !== undefined) return String(options.nowMs);
    return deps.timeSource === "app" ? String(clock()) : "";
  }

  function failModeDecision(rules: LimiterRule[], keys: string[]): Decision {
    const now = clock();
    // A `closed` enforce rule refuses the request (503), so the local rules must not consume.
    const unavailable = rules.some((rule) => rule.failMode === "closed" && rule.mode === "enforce");
    const localRules = rules
      .map((rule, i) => ({ rule, key: keys[i]! }))
      .filter(({ rule }) => rule.failMode === "local" && deps.local);
    const localResults = new Map(
      (deps.local?.decide(localRules, now, !unavailable) ?? []).map((result) => [result.rule, result] as const),
    );
    const results = rules.map((rule): RuleResult => {
      const local = localResults.get(rule);
      if (local) return local;
      const closed = rule.failMode === "closed" && rule.mode === "enforce";
      return {
        rule,
        allowed: !closed,
        limit: rule.limit,
        remaining: closed ? 0 : rule.limit,
        resetMs: 0,
        retryAfterMs: closed ? 1000 : 0,
        nextMs: 0,
        source: closed ? "fail_closed" : "fail_open",
      };
    });
    const decision = summarize(results, now, unavailable);
    if (unavailable) decision.retryAfterMs = Math.max(decision.retryAfterMs, 1000);
    return decision;
  }

  return {
    async decide(rules, subject, options = {}) {
      if (rules.length === 0) return EMPTY(options.nowMs ?? clock());
      const keys = rules.map((rule) => counterKey(deps.prefix, rule, subject));
      const useCache = options.nowMs === undefined && deps.refusals !== undefined;
      const fingerprint = useCache ? refusalFingerprint(rules, keys) : "";
      if (useCache) {
        const cached = deps.refusals!.get(fingerprint, clock());
        if (cached) return cached;
      }
      try {
        const decision = await callScript(rules, keys, subject, options, true);
        if (useCache) deps.refusals!.remember(fingerprint, decision, clock());
        return decision;
      } catch (error) {
        if (!(error instanceof LimiterUnavailableError)) throw error;
        deps.onUnavailable?.(error, rules);
        return failModeDecision(rules, keys);
      }
    },

    async peek(rules, subject, options = {}) {
      if (rules.length === 0) return EMPTY(options.nowMs ?? clock());
      const keys = rules.map((rule) => counterKey(deps.prefix, rule, subject));
      return callScript(rules, keys, subject, options, false);
    },
  };
}
