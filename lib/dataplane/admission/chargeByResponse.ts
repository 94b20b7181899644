/**
 * Count by response (rule field chargeOn): the second half of a request's decision.
 *
 * Contract
 * - Admission (admit.ts, with `chargeByResponse`) checks chargeOn rules without consuming them and
 *   hands them over as a `DeferredCharge`. Once the answer's status is known (the upstream's, or
 *   Sluice's own for echo, check and the gateway's 502/504), `chargeByResponse` consumes, in one
 *   limiter call, exactly those rules that list the status's class. No status (the client went
 *   away first): nothing is charged.
 * - It never alters the answer, which is on its way already: it resolves, never rejects, and is
 *   not awaited by the response path. A charge that finds no quota left (requests in flight
 *   between check and charge took it) consumes nothing; with blockMs it starts the rule's penalty,
 *   as any refusal by the rule would. A charge Redis cannot take is logged and counted
 *   (sluice_response_charges_total{outcome="failed"}), never retried and never charged locally.
 */
import type { Limiter } from "../../limiter/decide";
import { STATUS_CLASSES, type LimiterRule, type StatusClass, type Subject } from "../../limiter/types";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";

/** Rules to charge once the answer's status is known, and whose counters they charge. */
export interface DeferredCharge {
  rules: LimiterRule[];
  subject: Subject;
}

export interface ChargeDeps {
  limiter: Pick<Limiter, "charge">;
  metrics?: Pick<SluiceMetrics, "responseCharges">;
  log?: (message: string) => void;
}

/** "4xx" for 401; undefined outside 100..599 (not an HTTP status). */
export function statusClassOf(status: number): StatusClass | undefined {
  if (!Number.isInteger(status) || status < 100 || status > 599) return undefined;
  return STATUS_CLASSES[Math.floor(status / 100) - 1];
}

/** The deferred rules a response of `status` charges: those whose chargeOn lists its class. */
export function rulesToCharge(rules: readonly LimiterRule[], status: number): LimiterRule[] {
  const cls = statusClassOf(status);
  if (!cls) return [];
  return rules.filter((rule) => rule.chargeOn?.includes(cls));
}

export async function chargeByResponse(
  charge: DeferredCharge | undefined,
  status: number | undefined,
  deps: ChargeDeps,
): Promise<void> {
  if (!charge || status === undefined) return;
  const rules = rulesToCharge(charge.rules, status);
  if (rules.length === 0) return;
  try {
    const decision = await deps.limiter.charge(rules, charge.subject);
    deps.metrics?.responseCharges.inc({ outcome: decision.allowed ? "charged" : "no_quota" });
  } catch (error) {
    deps.metrics?.responseCharges.inc({ outcome: "failed" });
    const names = rules.map((rule) => rule.name).join(", ");
    (deps.log ?? console.warn)(
      `[sluice] could not charge a ${status} response to ${names} (tenant ${charge.subject.tenantId}): ${(error as Error).message}`,
    );
  }
}
