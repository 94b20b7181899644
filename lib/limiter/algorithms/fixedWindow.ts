/** fixed_window reference model; twin of lua/includes/fixed_window.lua. */
import type { AlgorithmModel, RuleView } from "./model";
import { PACK_WINDOWS, ttlMs } from "./model";

/** As the Lua stores it: window * FW_COUNT + count while count < FW_COUNT, else the pair as text. */
export type FixedWindowState = number | { window: number; count: number };
const FW_COUNT = 2 ** 21;

function unpack(state: FixedWindowState): { window: number; count: number } {
  if (typeof state !== "number") return state;
  const count = state % FW_COUNT;
  return { window: (state - count) / FW_COUNT, count };
}

function pack(window: number, count: number): FixedWindowState {
  return count < FW_COUNT && window < PACK_WINDOWS ? window * FW_COUNT + count : { window, count };
}

export const fixedWindow: AlgorithmModel<FixedWindowState> = {
  evaluate(state, { limit, windowMs }, now, cost) {
    const w = Math.floor(now / windowMs);
    const stored = state === undefined ? undefined : unpack(state);
    const count = stored && stored.window === w ? stored.count : 0;
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
      next: cost > 0 ? { state: pack(w, afterCount), ttlMs: ttlMs(untilEnd) } : null,
    };
  },
  giveBack(state, { windowMs }, { reservedAtMs, cost }) {
    const w = Math.floor(reservedAtMs / windowMs);
    const stored = unpack(state);
    if (stored.window !== w || stored.count <= 0) return null;
    return pack(w, Math.max(0, stored.count - cost));
  },
};
