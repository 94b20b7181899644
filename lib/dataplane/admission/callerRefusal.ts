/**
 * A caller admission refused (caller.ts answered a `CallerRefusal`), as the outcome value
 * (outcome.ts), for lib/dataplane/admission/admit.ts:
 * - `unauthorized` (a missing or refused credential): a 401 (`unauthenticated`), itself limited per
 *   client IP, so keys cannot be guessed at speed: 429 beyond SLUICE_ANON_LIMIT_PER_MINUTE
 *   (`unauthenticated_refused`, or 503 when that limit cannot be decided); decided (one limiter
 *   call) and recorded under the pseudo-tenant ANONYMOUS_TENANT;
 * - `jwks_unavailable` (a tenant's JWKS cannot be had): 503, no decision.
 * Counts and records nothing itself (applyOutcome.ts does); a limiter that throws rejects.
 */
import { rateLimitHeaders } from "../../limiter/headers";
import { ANONYMOUS_TENANT, anonymousRule } from "../../policy/compiled/anonymousRule";
import type { CallerRefusal } from "./caller";
import { timedDecide, type DecideDeps } from "./decideOnce";
import type { Refused } from "./outcome";
import { jwksUnavailableReply, refusalReply, unauthorizedReply } from "./refusalReplies";

export interface CallerRefusalDeps extends DecideDeps {
  anonLimitPerMinute: number;
}

export function refuseCaller(deps: CallerRefusalDeps, ip: string, refusal: CallerRefusal): Refused | Promise<Refused> {
  if (refusal.refused === "unauthorized") return unauthenticated(deps, ip, refusal.reason);
  return { kind: "refused", outcome: "jwks_unavailable", reply: jwksUnavailableReply(refusal.reason) };
}

/** A 401 (a missing or refused credential), itself limited per client IP. */
async function unauthenticated(deps: CallerRefusalDeps, ip: string, reason: string): Promise<Refused> {
  const [decision] = await timedDecide(deps, [anonymousRule(deps.anonLimitPerMinute)], {
    tenantId: ANONYMOUS_TENANT,
    ip,
  });
  const headers = rateLimitHeaders(decision);
  return decision.allowed
    ? {
        kind: "refused",
        outcome: "unauthenticated",
        reply: unauthorizedReply(reason, headers),
        decision,
        tenantId: ANONYMOUS_TENANT,
      }
    : {
        kind: "refused",
        outcome: "unauthenticated_refused",
        reply: refusalReply(decision, headers),
        decision,
        tenantId: ANONYMOUS_TENANT,
      };
}
