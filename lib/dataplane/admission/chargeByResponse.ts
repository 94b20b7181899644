/**
 * Count by response (rule field chargeOn): the second half of a request's decision.
 *
 * Contract
 * - Admission (admit.ts) reserves chargeOn rules like any rule: the admitting decision consumes
 *   them, so a request that would pass the limit is refused before it goes on, and at most `limit`
 *   units are ever in flight or spent per window however many requests run at once. It hands them
 *   over as a `DeferredCharge`, with that decision (the reservation).
 * - Once the answer's status is known (the upstream's, or Sluice's own for echo, check and the
 *   gateway's 502/504), `chargeByResponse` gives back, in one limiter call, the rules that do not
 *   list the status's class (Limiter.giveBack: into the window the units were reserved in, or not at
 *   all); the rules that list it stay charged.
 * - No status (the client went away before an answer was sent to it): every reservation stays
 *   charged. The request was admitted and may well have reached the upstream (a login attempt whose
 *   answer the client chose not to wait for is still an attempt), so going away buys no free tries.
 * - It never alters the answer, which is on its way already: it resolves, never rejects, and is
 *   not awaited by the response path. A give-back Redis cannot take is logged and counted
 *   (sluice_response_charges_total{outcome="failed"}): the reservation then stays charged (the
 *   safe side), never retried.
 */
import type { Limiter } from "../../limiter/decide";
import { STATUS_CLASSES, type Decision, type LimiterRule, type StatusClass, type Subject } from "../../limiter/types";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";

/** Rules reserved at admission to settle once the answer's status is known, whose counters, and the reserving decision. */
export interface DeferredCharge {
  rules: LimiterRule[];
  subject: Subject;
  reservation: Decision;
}

export interface ChargeDeps {
  limiter: Pick<Limiter, "giveBack">;
  metrics?: Pick<SluiceMetrics, "responseCharges">;
  log?: (message: string) => void;
}

/** "4xx" for 401; undefined outside 100..599 (not an HTTP status). */
export function statusClassOf(status: number): StatusClass | undefined {
  if (!Number.isInteger(status) || status < 100 || status > 599) return undefined;
  return STATUS_CLASSES[Math.floor(status / 100) - 1];
}

/** The reserved rules an answer of `status` gives back: those whose chargeOn does not list its class. */
export function rulesToGiveBack(rules: readonly LimiterRule[], status: number): LimiterRule[] {
  const cls = statusClassOf(status);
  if (!cls) return [];
  return rules.filter((rule) => !rule.chargeOn?.includes(cls));
}

export async function chargeByResponse(
  charge: DeferredCharge | undefined,
  status: number | undefined,
  deps: ChargeDeps,
): Promise<void> {
  if (!charge) return;
  const rules = status === undefined ? [] : rulesToGiveBack(charge.rules, status);
  if (rules.length === 0) {
    deps.metrics?.responseCharges.inc({ outcome: status === undefined ? "no_answer" : "charged" });
    return;
  }
  try {
    const given = await deps.limiter.giveBack(charge.reservation, rules, charge.subject);
    deps.metrics?.responseCharges.inc({ outcome: given > 0 ? "given_back" : "window_passed" });
  } catch (error) {
    deps.metrics?.responseCharges.inc({ outcome: "failed" });
    const names = rules.map((rule) => rule.name).join(", ");
    (deps.log ?? console.warn)(
      `[sluice] could not give back ${names} for a ${status} response (tenant ${charge.subject.tenantId}), which stays charged: ${(error as Error).message}`,
    );
  }
}
