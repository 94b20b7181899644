/**
 * The limit every unauthenticated request meets (SLUICE_ANON_LIMIT_PER_MINUTE per client IP), and
 * the pseudo-tenant its decisions are counted and recorded under. Admission applies it
 * (lib/dataplane/admission/admit.ts); the dashboard names it (lib/monitoring/query/monitoringDirectory.ts).
 *
 * Its fail mode is `local`: with Redis unreachable each instance still counts bad-key requests per
 * client IP in its own memory, so keys cannot be guessed at full speed during an outage (with
 * `open` they got 401 forever, never 429).
 */
import type { LimiterRule } from "../../limiter/types";

/** The hash tag of the anonymous limit's counters: `-` never occurs in a tenant id. */
export const ANONYMOUS_TENANT = "-anon";

export function anonymousRule(limitPerMinute: number): LimiterRule {
  return {
    name: "anonymous",
    ref: "anon",
    scope: "ip",
    algorithm: "sliding_window",
    limit: limitPerMinute,
    windowMs: 60_000,
    burst: limitPerMinute,
    cost: 1,
    blockMs: 0,
    failMode: "local",
    mode: "enforce",
  };
}
