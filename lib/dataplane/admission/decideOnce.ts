/**
 * Admission's last step (lib/dataplane/admission/admit.ts): ONE limiter decision for the rules a
 * request meets, answered as the outcome value (outcome.ts).
 *
 * Contract
 * - One limiter call: `Limiter.decide`, or `Limiter.decideThen` when a following decision is
 *   given (POST /api/v1/check's identifier, lib/dataplane/routes.ts checkPlan): that one counts
 *   only if the request's own admits, and comes back as the admission's `then`.
 * - Allowed: `allowed`, with the decision's rate-limit headers, its concurrency `lease`, and, unless
 *   `forwardAuth` (no answer status is ever seen there), the rules counted by response (chargeOn)
 *   as the deferred `charge` (chargeByResponse.ts), reserved by this decision.
 * - Refused: 429 (`refused`), or 503 when Redis cannot answer and a `closed` rule applies
 *   (`unavailable`), with the same headers; recorded under the tenant and `recordedId`.
 * - `timedDecide` times each limiter call (sluice_decide_seconds), the anonymous limit's too.
 * Counts and records nothing itself (applyOutcome.ts does, at the edge); a limiter that throws
 * rejects (the data plane answers a problem).
 */
import type { Limiter } from "../../limiter/decide";
import { rateLimitHeaders } from "../../limiter/headers";
import type { Decision, LimiterRule, Subject } from "../../limiter/types";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";
import type { Admission, Admitted, Client } from "./outcome";
import { refusalReply } from "./refusalReplies";

/** A second decision made in the same limiter call, counting only if the request's own admits. */
export interface FollowingDecision {
  rules: LimiterRule[];
  subject: Subject;
}

/** The rules a request meets, ready for the one decision (rulesToDecide.ts). */
export interface ToDecide {
  kind: "decide";
  client: Client;
  rules: LimiterRule[];
  subject: Subject;
  /** Who the monitoring data shows (caller.ts monitoringIdOf). */
  recordedId: string | undefined;
  attributes: Readonly<Record<string, string>> | undefined;
}

export interface DecideDeps {
  limiter: Limiter;
  metrics?: SluiceMetrics;
}

export async function timedDecide(
  deps: DecideDeps,
  rules: LimiterRule[],
  subject: Subject,
  then?: FollowingDecision,
): Promise<[Decision, Decision | undefined]> {
  const stop = deps.metrics?.decideSeconds.startTimer();
  try {
    if (then) return await deps.limiter.decideThen(rules, subject, {}, then);
    return [await deps.limiter.decide(rules, subject), undefined];
  } finally {
    stop?.();
  }
}

export async function decideOnce(
  toDecide: ToDecide,
  request: { forwardAuth?: boolean },
  deps: DecideDeps,
  then?: FollowingDecision,
): Promise<Admission> {
  const { client, rules, subject, recordedId, attributes } = toDecide;
  const [decision, thenDecision] = await timedDecide(deps, rules, subject, then);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    const outcome = decision.unavailable ? "unavailable" : "refused";
    return {
      kind: "refused",
      outcome,
      reply: refusalReply(decision, headers),
      decision,
      tenantId: client.tenantId,
      recordedId,
      tier: client.tier ?? client.key?.tier,
      attributes,
    };
  }
  const admitted: Admitted = {
    kind: "admitted",
    outcome: "allowed",
    client,
    headers,
    decision,
    recordedId,
    attributes,
  };
  if (thenDecision) admitted.then = thenDecision;
  if (!request.forwardAuth && rules.some((rule) => rule.chargeOn))
    admitted.charge = { rules: rules.filter((rule) => rule.chargeOn), subject, reservation: decision };
  if (decision.lease) admitted.lease = decision.lease;
  return admitted;
}
