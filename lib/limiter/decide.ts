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
 * - `peek` reads without consuming; it throws `LimiterUnavailableError` when Redis cannot answer.
 * - Time: Redis TIME, unless `nowMs` is passed (tests, simulation) or `timeSource` is `app`.
 * - Requests whose refusal is already known (refusal cache) are answered without Redis.
 */
import { counterKey } from "./keys";
import { ALGORITHM_DEFS } from "./algorithms/registry";
import { decideScriptSource } from "./decideScript";
import { DecideBatcher } from "./decideBatcher";
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
  /** Told about Redis failures and fail-mode use (metrics, logs). Must not throw. */
  onUnavailable?: (error: LimiterUnavailableError, rules: LimiterRule[]) => void;
}

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

/** Each rule's 6 script fields (see decide.lua); a peek charges nothing. */
function ruleFields(rules: LimiterRule[], commit: boolean): (string | number)[] {
  const fields: (string | number)[] = [];
  for (const rule of rules) {
    fields.push(ALGORITHM_DEFS[rule.algorithm].code, rule.limit, rule.windowMs, rule.burst, commit ? rule.cost : 0, rule.mode === "enforce" ? "1" : "0");
  }
  return fields;
}

export function createLimiter(deps: LimiterDeps): Limiter {
  const clock = deps.clock ?? Date.now;
  // Load the script now: a missing or broken file is a deploy error that must fail loudly at
  // start-up, not be mistaken for an unavailable Redis (which would fail every rule open).
  decideScriptSource();

  const batcher = new DecideBatcher(deps.redis, deps.timeoutMs);
  const clustered = deps.redis.isCluster;

  async function callScript(rules: LimiterRule[], keys: string[], subject: Subject, now: string, commit: boolean): Promise<Decision> {
    // On a Cluster a call must stay within one slot: batch per tenant. On one node, batch all.
    const group = clustered ? subject.tenantId : "";
    const parsed = await batcher.submit(group, { keys, now, commit, fields: ruleFields(rules, commit) });
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
    const localRules = rules
      .map((rule, i) => ({ rule, key: keys[i]! }))
      .filter(({ rule }) => rule.failMode === "local" && deps.local);
    const localResults = new Map(
      (deps.local?.decide(localRules, now) ?? []).map((result) => [result.rule, result] as const),
    );
    let unavailable = false;
    const results = rules.map((rule): RuleResult => {
      const local = localResults.get(rule);
      if (local) return local;
      const closed = rule.failMode === "closed" && rule.mode === "enforce";
      if (closed) unavailable = true;
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
      const explicitNow = options.nowMs !== undefined;
      const nowArg = timeArg(options);
      const useCache = !explicitNow && deps.refusals !== undefined;
      const fingerprint = useCache ? keys.join("|") + "#" + ruleFields(rules, true).join(",") : "";
      if (useCache) {
        const cached = deps.refusals!.get(fingerprint, clock());
        if (cached) return cached;
      }
      try {
        const decision = await callScript(rules, keys, subject, nowArg, true);
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
      return callScript(rules, keys, subject, timeArg(options), false);
    },
  };
}
