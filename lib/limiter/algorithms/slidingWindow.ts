/** sliding_window (weighted two-window counter) reference model; twin of lua/includes/sliding_window.lua. */
import type { AlgorithmModel, RuleView } from "./model";
import { ttlMs } from "./model";

export interface SlidingWindowState {
  window: number;
  current: number;
  previous: number;
}

export const slidingWindow: AlgorithmModel<SlidingWindowState> = {
  evaluate(state, { limit, windowMs: window }, now, cost) {
    const w = Math.floor(now / window);
    let cur = 0;
    let prev = 0;
    if (state?.window === w) {
      cur = state.current;
      prev = state.previous;
    } else if (state?.window === w - 1) {
      prev = state.current;
    }
    const elapsed = now - w * window;
    const untilEnd = window - elapsed;
    const view = (c: number): RuleView => {
      const estimate = (prev * untilEnd) / window + c;
      const reset = c > 0 ? untilEnd + window : prev > 0 ? untilEnd : 0;
      const next = prev > 0 ? Math.min(Math.ceil(window / prev), untilEnd) : c > 0 ? untilEnd : 0;
      return { remaining: Math.max(0, Math.floor(limit - estimate)), resetMs: reset, nextMs: next };
    };
    const estimate = (prev * untilEnd) / window + cur;
    const allowed = estimate + cost <= limit;
    let retry = 0;
    if (!allowed) {
      if (cost > limit) retry = -1;
      else if (limit - cur - cost >= 0) retry = Math.ceil(untilEnd - ((limit - cur - cost) * window) / prev);
      else retry = Math.ceil(untilEnd + Math.max(0, window - ((limit - cost) * window) / cur));
    }
    return {
      allowed,
      retryAfterMs: retry,
      before: view(cur),
      after: view(cur + cost),
      next: cost > 0 ? { state: { window: w, current: cur + cost, previous: prev }, ttlMs: ttlMs(untilEnd + window) } : null,
    };
  },
};
