/**
 * The reference-model contract every algorithm implements in TypeScript, mirroring its Lua twin
 * step for step (same formulas, same order of floating-point operations), so that:
 * - tests can compare Redis decisions with the model on random sequences;
 * - the `local` fail mode enforces the same algorithm in process memory while Redis is away;
 * - the simulator can compute reference figures.
 * Models are pure: state in, state out, time passed in.
 */
import type { LimitParams } from "../types";

export interface RuleView {
  remaining: number;
  resetMs: number;
  nextMs: number;
}

export interface Evaluation<S> {
  allowed: boolean;
  /** ms until this request would pass; 0 when allowed; -1 when it never can (cost > capacity). */
  retryAfterMs: number;
  before: RuleView;
  after: RuleView;
  /** State once this request is consumed, and how long it stays meaningful; null when nothing changes. */
  next: { state: S; ttlMs: number } | null;
}

/** What a give-back (count by response, lib/limiter/giveBackScript.ts) undoes: one reservation. */
export interface GiveBack {
  /** The reserving decision's time (epoch ms). */
  reservedAtMs: number;
  nowMs: number;
  cost: number;
  /** token_bucket, gcra: the TAT the reservation left, rounded up; ignored by the others. */
  tatUntilMs: number;
}

export interface AlgorithmModel<S> {
  /** `lease`: the request's lease id, which only concurrency keeps (as its member); others ignore it. */
  evaluate(state: S | undefined, params: LimitParams, nowMs: number, cost: number, lease?: string): Evaluation<S>;
  /**
   * The state once a reservation is given back into the window it was made in (twin of
   * lua/includes/give_back.lua), or null when nothing is left to give back. Absent: the algorithm
   * takes no give-back (concurrency, whose slots are released instead).
   */
  giveBack?(state: S, params: LimitParams, g: GiveBack): S | null;
}

/** Lua's EPSILON: tolerance for floating-point drift in rate arithmetic. */
export const EPSILON = 1e-9;

/**
 * Lua's compact states (preamble.lua): a window index and counts packed into one integer below
 * 2^53 while the counts fit, else a text triple. Window indexes stay below this until 2106.
 */
export const PACK_WINDOWS = 2 ** 32;

/** Lua's `ttl_ms`: whole ms, at least 1. */
export function ttlMs(x: number): number {
  return Math.max(1, Math.ceil(x));
}

/** The reply's rounding: remaining down, times up. */
export function roundView(view: RuleView): RuleView {
  return { remaining: Math.floor(view.remaining), resetMs: Math.ceil(view.resetMs), nextMs: Math.ceil(view.nextMs) };
}
