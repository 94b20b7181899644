/** fixed_window reference model; twin of lua/includes/fixed_window.lua. */
import type { AlgorithmModel, RuleView } from "./model";
import { ttlMs } from "./model";

export interface FixedWindowState {
  window: number;
  count: number;
}

export const fixedWindow: AlgorithmModel<FixedWindowState> = {
  evaluate(state, { limit, windowMs }, now, cost) {
    const w = Math.floor(now / windowMs);
    const count = state && state.window === w ? state.count : 0;
    const untilEnd = (w + 1) * windowMs - now;
    const afterCount = count + cost;
    const view = (c: number): RuleView => {
      const reset = c > 0 ? untilEnd : 0;
      return { remaining: Math.max(0, limit - c), resetMs: reset, nextMs: reset };
    };
    const allowed = afterCount <= limit;
    return {
      allowed,
      retryAfterMs: allowed ? 0 : cost > limit ? -1 : untilEnd,
      before: view(count),
      after: view(afterCount),
      next: cost > 0 ? { state: { window: w, count: afterCount }, ttlMs: ttlMs(untilEnd) } : null,
    };
  },
};
