/**
 * GCRA reference model; twin of lua/includes/gcra.lua. State: the theoretical arrival time, split
 * into whole ms and a fraction (see the Lua for why). Works on `tat - now` like the Lua.
 */
import type { AlgorithmModel, RuleView } from "./model";
import { EPSILON, ttlMs } from "./model";

export interface GcraState {
  tatMs: number;
  tatFraction: number;
}

export const gcra: AlgorithmModel<GcraState> = {
  evaluate(state, { limit, windowMs, burst }, now, cost) {
    const interval = windowMs / limit;
    const tolerance = burst * interval;
    const stored = state === undefined ? 0 : state.tatMs - now + state.tatFraction;
    const ahead = stored > 0 ? stored : 0;
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
      next:
        cost > 0
          ? { state: { tatMs: now + Math.floor(newAhead), tatFraction: newAhead - Math.floor(newAhead) }, ttlMs: ttlMs(newAhead) }
          : null,
    };
  },
};
