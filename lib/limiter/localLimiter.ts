/**
 * The `local` fail mode: while Redis cannot answer, rules with failMode `local` are enforced in this
 * process's memory by the same reference models the Lua scripts mirror. Each instance then admits up
 * to the limit on its own (N instances: up to N x limit), which is the documented price of staying
 * up. State is bounded (oldest entries evicted) and expires like the Redis keys would.
 * Same all-or-nothing rule as Redis: a refusal by any local enforce rule consumes nothing, and
 * neither does a request that something else refuses (`commit: false`, e.g. a `closed` rule of the
 * same request while Redis is away).
 * Count by response (chargeOn) reserves here as in Redis (the rule is consumed at admission) and
 * `giveBack` undoes a reservation made here, by the models' give-back (twin of the Lua's).
 * Penalties (blockMs) are kept here too, but only those this instance starts while Redis is away: a
 * penalty recorded in Redis is not seen until Redis answers again.
 */
import { ALGORITHM_DEFS } from "./algorithms/registry";
import { roundView } from "./algorithms/model";
import { applyPenalty } from "./algorithms/penalty";
import { BoundedMap } from "./boundedMap";
import type { GiveBack } from "./algorithms/model";
import type { LimiterRule, RuleResult } from "./types";

/** A rule to decide locally, with the ids of its state and of its penalty (lib/limiter/keys.ts stateId). */
export interface LocalRule {
  rule: LimiterRule;
  key: string;
  /** Needed only when the rule has a penalty (blockMs > 0). */
  penaltyKey?: string;
}

export class LocalLimiter {
  private readonly states: BoundedMap<unknown>;

  constructor(maxEntries = 100_000) {
    this.states = new BoundedMap(maxEntries);
  }

  /** Decides `rules` at `now`; commits only if `commit` and every enforce rule allows. */
  decide(rules: LocalRule[], now: number, commit = true): RuleResult[] {
    const evaluations = rules.map(({ rule, key, penaltyKey }) => {
      const own = ALGORITHM_DEFS[rule.algorithm].model.evaluate(this.states.get(key, now), rule, now, rule.cost);
      const penaltyId = penaltyKey ?? key + "\npenalty";
      const outcome =
        rule.blockMs > 0
          ? applyPenalty(own, this.states.get(penaltyId, now) as number | undefined, rule.blockMs, now, commit)
          : undefined;
      if (outcome?.startsUntil != null) this.states.set(penaltyId, outcome.startsUntil, outcome.startsUntil);
      return { rule, key, evaluation: outcome?.evaluation ?? own, penalized: outcome?.penalized ?? false };
    });
    const admitted =
      commit && evaluations.every(({ rule, evaluation }) => rule.mode === "shadow" || evaluation.allowed);
    return evaluations.map(({ rule, key, evaluation, penalized }) => {
      const consumed = admitted && evaluation.allowed && evaluation.next !== null;
      if (consumed) this.states.set(key, evaluation.next!.state, now + evaluation.next!.ttlMs);
      const view = roundView(consumed ? evaluation.after : evaluation.before);
      return {
        rule,
        allowed: evaluation.allowed,
        ...(penalized ? { penalized: true } : {}),
        limit: rule.limit,
        ...view,
        retryAfterMs: evaluation.retryAfterMs < 0 ? rule.windowMs : evaluation.retryAfterMs,
        source: "fail_local",
      };
    });
  }

  /** Gives back a reservation this instance made of `rule` under `key`; true when something was given back. */
  giveBack(rule: LimiterRule, key: string, g: GiveBack): boolean {
    const model = ALGORITHM_DEFS[rule.algorithm].model;
    const state = this.states.get(key, g.nowMs);
    if (state === undefined || !model.giveBack) return false;
    const next = model.giveBack(state, rule, g);
    return next !== null && this.states.replace(key, next, g.nowMs);
  }
}
