/** sliding_window (weighted two-window counter) reference model; twin of lua/includes/sliding_window.lua. */
import type { AlgorithmModel, RuleView } from "./model";
import { PACK_WINDOWS, ttlMs } from "./model";

interface Counts {
  window: number;
  current: number;
  previous: number;
}

/** As the Lua stores it: (window * SW_COUNT + previous) * SW_COUNT + current while both counts fit. */
export type SlidingWindowState = number | Counts;
const SW_COUNT = 2 ** 10;

function unpack(state: SlidingWindowState): Counts {
  if (typeof state !== "number") return state;
  const current = state % SW_COUNT;
  const rest = (state - current) / SW_COUNT;
  const previous = rest % SW_COUNT;
  return { window: (rest - previous) / SW_COUNT, current, previous };
}

function pack(c: Counts): SlidingWindowState {
  return c.current < SW_COUNT && c.previous < SW_COUNT && c.window < PACK_WINDOWS
    ? (c.window * SW_COUNT + c.previous) * SW_COUNT + c.current
    : c;
}

export const slidingWindow: AlgorithmModel<SlidingWindowState> = {
  evaluate(state, { limit, windowMs: window }, now, cost) {
    const w = Math.floor(now / window);
    let cur = 0;
    let prev = 0;
    const stored = state === undefined ? undefined : unpack(state);
    if (stored?.window === w) {
      cur = stored.current;
      prev = stored.previous;
    } else if (stored?.window === w - 1) {
      prev = stored.current;
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
      next:
        cost > 0
          ? { state: pack({ window: w, current: cur + cost, previous: prev }), ttlMs: ttlMs(untilEnd + window) }
          : null,
    };
  },
  giveBack(state, { windowMs }, { reservedAtMs, cost }) {
    const w = Math.floor(reservedAtMs / windowMs);
    const c = unpack(state);
    if (c.window === w && c.current > 0) return pack({ ...c, current: Math.max(0, c.current - cost) });
    if (c.window === w + 1 && c.previous > 0) return pack({ ...c, previous: Math.max(0, c.previous - cost) });
    return null;
  },
};
