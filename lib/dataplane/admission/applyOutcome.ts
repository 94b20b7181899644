/**
 * Admission's effects, applied ONCE per request at the data plane's edge (lib/dataplane/dataPlane.ts)
 * from the outcome value admission answered (lib/dataplane/admission/outcome.ts), never at its exits.
 *
 * Contract
 * - Counts `sluice_decisions_total{outcome}` with the outcome's label, and, for a decision made,
 *   its rules' verdicts (sluice_rule_results_total, sluice_penalty_refusals_total); the anonymous
 *   limit's verdicts count only when it refuses (`unauthenticated_refused`), as they always did.
 * - Counts the access list's verdict (sluice_access_list_verdicts_total: `access_denied` is deny,
 *   `access_allowed` allow) and the concurrency slots an admission took (`taken`).
 * - Hands the request to the monitoring recorder (memory only, never awaited): an admitted one
 *   under its client's tenant and `recordedId` (decision null when none was made: no rule matched,
 *   or the allow list admitted it); a refused one only when a decision refused it, under its
 *   `tenantId` (ANONYMOUS_TENANT for the anonymous limit). Refused before any decision (store,
 *   JWKS, deny list, attribute): not recorded. The path is cut to MAX_PATH_CHARS, no query string.
 * - `releaseLease` gives an admission's slots back (once, when the request is over) and counts
 *   them released, expired or unreleased; it never throws.
 * Never throws; allocates only the recorder's entry.
 */
import type { Limiter } from "../../limiter/decide";
import type { Decision, Lease } from "../../limiter/types";
import type { DecisionSink } from "../../monitoring/record/decisionRecorder";
import { MAX_PATH_CHARS, type AnswerBox } from "../../monitoring/record/recentDecisions";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";
import type { Admission } from "./outcome";

export interface OutcomeDeps {
  metrics?: SluiceMetrics;
  /** Monitoring data (lib/monitoring/record/decisionRecorder.ts). */
  recorder?: DecisionSink;
}

/** What the recorder keeps of the request itself. */
export interface RecordedRequestFields {
  method: string;
  path: string;
  ip: string;
  /** Filled with the answer's status once sent (recorded with the key's recent decision). */
  answered?: AnswerBox;
}

function countRuleResults(metrics: SluiceMetrics, decision: Decision): void {
  for (const r of decision.results) {
    const result = r.allowed ? "allowed" : r.rule.mode === "shadow" ? "would_refuse" : "refused";
    metrics.ruleResults.inc({ rule: r.rule.name, result });
    if (r.penalized) metrics.penaltyRefusals.inc({ rule: r.rule.name, result });
  }
}

function count(metrics: SluiceMetrics, outcome: Admission): void {
  metrics.decisions.inc({ outcome: outcome.outcome });
  if (outcome.decision && outcome.outcome !== "unauthenticated") countRuleResults(metrics, outcome.decision);
  if (outcome.outcome === "access_denied") metrics.accessListVerdicts.inc({ verdict: "deny" });
  if (outcome.outcome === "access_allowed") metrics.accessListVerdicts.inc({ verdict: "allow" });
  if (outcome.kind === "admitted" && outcome.lease)
    metrics.concurrencyLeases.inc({ event: "taken" }, outcome.lease.keys.length);
}

function record(recorder: DecisionSink, outcome: Admission, request: RecordedRequestFields): void {
  const tenantId = outcome.kind === "admitted" ? outcome.client.tenantId : outcome.tenantId;
  if (tenantId === undefined || (outcome.kind === "refused" && !outcome.decision)) return;
  recorder.recordRequest({
    tenantId,
    keyId: outcome.recordedId,
    tier: outcome.kind === "admitted" ? (outcome.client.tier ?? outcome.client.key?.tier) : outcome.tier,
    decision: outcome.decision ?? null,
    method: request.method,
    path: request.path.slice(0, MAX_PATH_CHARS),
    ip: request.ip,
    attributes: outcome.attributes,
    ...(request.answered ? { answered: request.answered } : {}),
  });
}

export function applyOutcome(outcome: Admission, request: RecordedRequestFields, deps: OutcomeDeps): void {
  if (deps.metrics) count(deps.metrics, outcome);
  if (deps.recorder) record(deps.recorder, outcome, request);
}

/** Gives an admission's concurrency slots back (once, when the request is over); never throws. */
export async function releaseLease(deps: { limiter: Limiter; metrics?: SluiceMetrics }, lease: Lease): Promise<void> {
  const released = await deps.limiter.release(lease);
  const leases = deps.metrics?.concurrencyLeases;
  if (!leases) return;
  if (released === null) leases.inc({ event: "unreleased" }, lease.keys.length);
  else {
    if (released > 0) leases.inc({ event: "released" }, released);
    if (released < lease.keys.length) leases.inc({ event: "expired" }, lease.keys.length - released);
  }
}
