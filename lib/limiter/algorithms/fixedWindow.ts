/** fixed_window reference model; twin of lua/includes/fixed_window.lua ("fw", and "fp" for a calendar rule). */
import type { AlgorithmModel, RuleView } from "./model";
import { PACK_WINDOWS, ttlMs } from "./model";
import type { LimitParams } from "../types";
import { periodAt } from "../calendar";

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

/** Lua's FP_MARGIN_MS: a calendar rule's key outlives its period by this much. */
const FP_MARGIN_MS = 60_000;

/**
 * The window holding `now`: its index and the ms until it ends. A calendar rule (`period`, Lua's
 * "fp") counts the period holding `now`, indexed by its start in whole seconds.
 */
function windowAt(params: Pick<LimitParams, "windowMs" | "period">, now: number): { w: number; untilEnd: number } {
  if (params.period) {
    const { startMs, endMs } = periodAt(params.period, now);
    return { w: Math.floor(startMs / 1000), untilEnd: Math.max(1, endMs - now) };
  }
  const w = Math.floor(now / params.windowMs);
  return { w, untilEnd: (w + 1) * params.windowMs - now };
}

export const fixedWindow: AlgorithmModel<FixedWindowState> = {
  evaluate(state, params, now, cost) {
    const { limit } = params;
    const { w, untilEnd } = windowAt(params, now);
    const stored = state === undefined ? undefined : unpack(state);
    const count = stored && stored.window === w ? stored.count : 0;
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
      next:
        cost > 0 ? { state: pack(w, afterCount), ttlMs: ttlMs(untilEnd + (params.period ? FP_MARGIN_MS : 0)) } : null,
    };
  },
  giveBack(state, params, { reservedAtMs, cost }) {
    const { w } = windowAt(params, reservedAtMs);
    const stored = unpack(state);
    if (stored.window !== w || stored.count <= 0) return null;
    return pack(w, Math.max(0, stored.count - cost));
  },
};
