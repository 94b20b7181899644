/**
 * The counters of one replay pass, held in this process's memory and decided by the TypeScript
 * reference models (lib/limiter/algorithms), which the Lua scripts mirror step for step (checked by
 * lib/limiter/luaMatchesModel.int.test.ts): a simulation never sends a limiter call to the Redis
 * that live decisions use, however large its rules or its trace.
 *
 * `refuses` decides one request the way decide.lua combines rules: every rule is evaluated on its
 * own counter; the request is consumed only when every enforce rule allows, and then by each
 * allowing rule (shadow or not); a refusing rule consumes nothing. Counters are keyed by the same
 * key Redis would use (lib/limiter/keys.ts), so rules share counters exactly as they do live.
 * States never expire here: a Redis key expires only once its state means "empty", so keeping it
 * decides the same. sliding_log counters are kept incrementally (slidingLogCounter.ts).
 * Penalties (blockMs) are kept like decide.lua keeps them (lib/limiter/algorithms/penalty.ts): a
 * rule under a penalty refuses whatever its counter says; a rule whose counter refuses starts one.
 * Time must not go back from one call to the next (the replay is sorted by time).
 */
import { penaltyLeft } from "../../limiter/algorithms/penalty";
import { ALGORITHM_DEFS } from "../../limiter/algorithms/registry";
import type { LimiterRule } from "../../limiter/types";
import { SlidingLogCounter } from "./slidingLogCounter";

export class ReplayCounters {
  private readonly logs = new Map<string, SlidingLogCounter>();
  private readonly states = new Map<string, unknown>();
  /** Penalty id -> the epoch ms its penalty ends. */
  private readonly penalties = new Map<string, number>();

  get size(): number {
    return this.logs.size + this.states.size + this.penalties.size;
  }

  private log(key: string): SlidingLogCounter {
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = new SlidingLogCounter()));
    return log;
  }

  /**
   * Decides a request of `rules` (with their counter `keys`, and the ids of their penalties where a
   * rule has one) at `nowMs`; true when it is refused.
   */
  refuses(
    rules: readonly LimiterRule[],
    keys: readonly string[],
    nowMs: number,
    penaltyIds: readonly string[] = [],
  ): boolean {
    const allowed: boolean[] = [];
    const next: unknown[] = [];
    let refused = false;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      if (rule.algorithm === "sliding_log") {
        allowed.push(this.log(keys[i]!).admits(nowMs, rule.limit, rule.windowMs, rule.cost));
        next.push(undefined);
      } else {
        const evaluation = ALGORITHM_DEFS[rule.algorithm].model.evaluate(
          this.states.get(keys[i]!),
          rule,
          nowMs,
          rule.cost,
        );
        allowed.push(evaluation.allowed);
        next.push(evaluation.next);
      }
      if (rule.blockMs > 0) this.applyPenalty(allowed, i, rule, penaltyIds[i]!, nowMs);
      if (!allowed[i] && rule.mode === "enforce") refused = true;
    }
    if (refused) return true;
    for (let i = 0; i < rules.length; i++) {
      if (!allowed[i]) continue;
      const rule = rules[i]!;
      if (rule.algorithm === "sliding_log") this.log(keys[i]!).commit(nowMs, rule.windowMs, rule.cost);
      else {
        const consumed = next[i] as { state: unknown } | null;
        if (consumed) this.states.set(keys[i]!, consumed.state);
      }
    }
    return false;
  }

  /** penalty.ts's applyPenalty, for a replay: only whether the rule admits matters here. */
  private applyPenalty(allowed: boolean[], i: number, rule: LimiterRule, id: string, nowMs: number): void {
    if (penaltyLeft(this.penalties.get(id), rule.blockMs, nowMs) > 0) allowed[i] = false;
    else if (!allowed[i]) this.penalties.set(id, nowMs + rule.blockMs);
  }
}
