/** Builds LimiterRule values for tests: sensible defaults, overridden per case. */
import type { LimiterRule } from "@/lib/limiter/types";

export function limiterRule(overrides: Partial<LimiterRule> = {}): LimiterRule {
  const name = overrides.name ?? "r";
  const limit = overrides.limit ?? 10;
  return {
    name,
    ref: overrides.ref ?? name,
    scope: "key",
    algorithm: "fixed_window",
    windowMs: 60_000,
    cost: 1,
    blockMs: 0,
    failMode: "open",
    mode: "enforce",
    ...overrides,
    limit,
    burst: overrides.burst ?? limit,
  };
}
