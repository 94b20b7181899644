/** sliding_log (exact) reference model; twin of lua/includes/sliding_log.lua. */
import type { AlgorithmModel, RuleView } from "./model";
import { ttlMs } from "./model";

/** Admitted requests, oldest first. */
export type SlidingLogState = { atMs: number; cost: number }[];

export const slidingLog: AlgorithmModel<SlidingLogState> = {
  evaluate(state, { limit, windowMs: window }, now, cost) {
    const live = (state ?? []).filter((entry) => entry.atMs > now - window);
    const used = live.reduce((sum, entry) => sum + entry.cost, 0);
    const view = (u: number, newest: number | undefined, oldest: number | undefined): RuleView => ({
      remaining: Math.max(0, limit - u),
      resetMs: newest === undefined ? 0 : newest + window - now,
      nextMs: oldest === undefined ? 0 : oldest + window - now,
    });
    const before = view(used, live.at(-1)?.atMs, live[0]?.atMs);
    const allowed = used + cost <= limit;
    let retry = 0;
    if (!allowed) {
      if (cost > limit) retry = -1;
      else {
        let freed = 0;
        for (const entry of live) {
          freed += entry.cost;
          if (used - freed + cost <= limit) {
            retry = entry.atMs + window - now;
            break;
          }
        }
      }
    }
    return {
      allowed,
      retryAfterMs: retry,
      before,
      after: cost > 0 ? view(used + cost, now, live[0]?.atMs ?? now) : before,
      next: cost > 0 ? { state: [...live, { atMs: now, cost }], ttlMs: ttlMs(window) } : null,
    };
  },
  giveBack(state, _params, { reservedAtMs, cost }) {
    const at = state.findIndex((entry) => entry.atMs === reservedAtMs && entry.cost === cost);
    return at < 0 ? null : state.filter((_, i) => i !== at);
  },
};
