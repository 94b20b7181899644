/**
 * Theoretical arrival time (TAT) reference model; twin of lua/includes/tat.lua, the one limiter
 * behind token_bucket and gcra. A bucket of capacity `burst` refilled with `limit` units per
 * `windowMs` admits exactly what GCRA with emission interval T = windowMs / limit and tolerance
 * burst * T admits; the state is the time the bucket is full again. Works on `ahead = tat - now`
 * like the Lua.
 *
 * State as the Lua stores it: a packed integer `whole ms * 2^11 + f` (fraction f / q, q the
 * denominator of T in lowest terms) while it fits, else the pair as text. See tat.lua.
 */
import type { AlgorithmModel, RuleView } from "./model";
import { EPSILON, ttlMs } from "./model";

export type TatState = number | { tatMs: number; fraction: number };

const UNITS = 2 ** 11;
const MAX_MS = 2 ** 42;
const MAX_AHEAD = 2 ** 32;

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** The denominator of windowMs / limit in lowest terms. */
export function tatDenominator(limit: number, windowMs: number): number {
  return limit / gcd(limit, windowMs);
}

function aheadOf(state: TatState, now: number, q: number): number {
  let ahead: number;
  if (typeof state === "number") {
    const f = Math.min(state % UNITS, q - 1);
    ahead = (state - f) / UNITS - now + f / q;
  } else {
    ahead = state.tatMs - now + state.fraction;
  }
  return ahead > 0 ? ahead : 0;
}

function stateAt(now: number, ahead: number, q: number): TatState {
  let whole = Math.floor(ahead);
  const fraction = ahead - whole;
  whole = now + whole;
  if (q <= UNITS && ahead < MAX_AHEAD) {
    let f = Math.floor(fraction * q + 0.5);
    if (f >= q) [whole, f] = [whole + 1, 0];
    if (whole < MAX_MS) return whole * UNITS + f;
  }
  return { tatMs: whole, fraction };
}

export const theoreticalArrival: AlgorithmModel<TatState> = {
  evaluate(state, { limit, windowMs, burst }, now, cost) {
    const interval = windowMs / limit;
    const tolerance = burst * interval;
    const q = tatDenominator(limit, windowMs);
    const ahead = state === undefined ? 0 : aheadOf(state, now, q);
    const newAhead = ahead + cost * interval;
    const view = (d: number): RuleView => {
      const left = Math.min(burst, Math.max(0, Math.floor((tolerance - d) / interval + EPSILON)));
      if (d <= 0) return { remaining: left, resetMs: 0, nextMs: 0 };
      return {
        remaining: left,
        resetMs: Math.ceil(d - EPSILON),
        nextMs: Math.max(0, Math.ceil((left + 1) * interval + d - tolerance - EPSILON)),
      };
    };
    const allowed = newAhead <= tolerance + EPSILON;
    return {
      allowed,
      retryAfterMs: allowed ? 0 : cost > burst ? -1 : Math.ceil(newAhead - tolerance - EPSILON),
      before: view(ahead),
      after: view(newAhead),
      next: cost > 0 ? { state: stateAt(now, newAhead, q), ttlMs: ttlMs(newAhead) } : null,
    };
  },
  giveBack(state, { limit, windowMs }, { nowMs, cost, tatUntilMs }) {
    if (nowMs >= tatUntilMs) return null;
    const q = tatDenominator(limit, windowMs);
    const ahead = aheadOf(state, nowMs, q);
    if (ahead <= 0) return null;
    return stateAt(nowMs, Math.max(0, ahead - (cost * windowMs) / limit), q);
  },
};
