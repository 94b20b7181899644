/** token_bucket reference model; twin of lua/includes/token_bucket.lua. */
import type { AlgorithmModel, RuleView } from "./model";
import { EPSILON, ttlMs } from "./model";

export interface TokenBucketState {
  tokens: number;
  updatedAtMs: number;
}

export const tokenBucket: AlgorithmModel<TokenBucketState> = {
  evaluate(state, { limit, windowMs, burst }, now, cost) {
    const rate = limit / windowMs;
    let tokens = burst;
    if (state) tokens = Math.min(burst, state.tokens + Math.max(0, now - state.updatedAtMs) * rate);
    const view = (t: number): RuleView => {
      const whole = Math.floor(t + EPSILON);
      const full = t >= burst;
      return {
        remaining: Math.max(0, whole),
        resetMs: full ? 0 : Math.ceil((burst - t) / rate),
        nextMs: full ? 0 : Math.ceil((whole + 1 - t) / rate),
      };
    };
    const allowed = tokens + EPSILON >= cost;
    const left = tokens - cost;
    return {
      allowed,
      retryAfterMs: allowed ? 0 : cost > burst ? -1 : Math.ceil((cost - tokens - EPSILON) / rate),
      before: view(tokens),
      after: view(left),
      next: cost > 0 ? { state: { tokens: left, updatedAtMs: now }, ttlMs: ttlMs((burst - left) / rate) } : null,
    };
  },
};
