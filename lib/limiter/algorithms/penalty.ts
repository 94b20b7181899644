/**
 * Penalties (rule field `blockMs`): the reference twin of lua/includes/penalty.lua, used wherever a
 * decision is made without Redis (the model check, the `local` fail mode, the simulator).
 *
 * Contract
 * - A penalty is the epoch ms at which it ends, kept per rule and subject (lib/limiter/keys.ts
 *   `penaltyKey` / `penaltyField`).
 * - It is in force while now < end and the rule has blockMs > 0; it lasts at most blockMs from now
 *   (lowering a rule's blockMs shortens penalties in force, setting it to 0 lifts them).
 * - A rule under a penalty refuses (a shadow rule: "would refuse"), whatever its counter says:
 *   remaining 0, retry, reset and next at least until the end. A request that can never pass
 *   (retry -1: cost above capacity) stays "never".
 * - A penalty starts when the rule's own counter refuses a request that is to be charged (never on
 *   a peek): end = now + blockMs. Refusals while one is in force do not extend it.
 * - The refused request consumes nothing: starting a penalty is a record, not a charge.
 */
import type { Evaluation } from "./model";

export interface PenaltyOutcome<S> {
  evaluation: Evaluation<S>;
  /** Refused because a penalty was in force before this request. */
  penalized: boolean;
  /** The end of a penalty this request starts (to store, living blockMs), or null. */
  startsUntil: number | null;
}

/** Ms left of the penalty stored as `end` at `now`; 0 when none is in force. */
export function penaltyLeft(end: number | undefined, blockMs: number, now: number): number {
  if (blockMs <= 0 || end === undefined || end <= now) return 0;
  return Math.min(end - now, blockMs);
}

/** A rule's own verdict with its penalty applied (`commit`: the request is to be charged). */
export function applyPenalty<S>(
  evaluation: Evaluation<S>,
  end: number | undefined,
  blockMs: number,
  now: number,
  commit: boolean,
): PenaltyOutcome<S> {
  let left = penaltyLeft(end, blockMs, now);
  const penalized = left > 0;
  let startsUntil: number | null = null;
  if (!penalized) {
    if (blockMs <= 0 || evaluation.allowed || !commit) return { evaluation, penalized: false, startsUntil: null };
    left = blockMs;
    startsUntil = now + blockMs;
  }
  const { retryAfterMs, before } = evaluation;
  return {
    evaluation: {
      ...evaluation,
      allowed: false,
      retryAfterMs: retryAfterMs >= 0 && retryAfterMs < left ? left : retryAfterMs,
      before: { remaining: 0, resetMs: Math.max(before.resetMs, left), nextMs: Math.max(before.nextMs, left) },
    },
    penalized,
    startsUntil,
  };
}
