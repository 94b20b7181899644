/**
 * When an alert condition fires, from the monitoring data (lib/monitoring): pure, time passed in.
 *
 * - Refusal rate: over the trailing `minutes` minutes [now - minutes, now) (whole seconds, from the
 *   per-second series of the tenant's requests), refused / (allowed + refused) is above
 *   `thresholdPct` % and those minutes held at least `minRequests` requests.
 * - Client limit: over the trailing `windowMinutes` epoch minutes (the current one included, from
 *   the per-minute "limited" counts: lib/monitoring/record/limitedSubjects.ts), one subject was refused by
 *   one enforce rule at least `hits` times. The alert names the MAX_CLIENTS_LISTED subjects with
 *   the most hits.
 * - At most once per condition window: the window of a condition of length L minutes is the epoch-
 *   aligned [k·L, (k+1)·L) holding `now`; its index k is what instances claim (lib/control/alerts/deliveryLog.ts).
 */
import { parseLimitedMember, type LimitedSubject } from "../../monitoring/record/limitedSubjects";
import type { ClientLimitCondition, RefusalRateCondition } from "./alertSchema";

export const MINUTE_MS = 60_000;
export const MAX_CLIENTS_LISTED = 10;

export interface RefusalTotals {
  allowed: number;
  refused: number;
}

export interface RefusalObservation {
  requests: number;
  refused: number;
  refusedPct: number;
}

export interface LimitHit {
  subject: Omit<LimitedSubject, "tenantId">;
  hits: number;
}

export interface AlertWindow {
  index: number;
  fromMs: number;
  toMs: number;
}

/** The epoch-aligned window of `minutes` minutes holding `nowMs`: what one claim covers. */
export function alertWindow(nowMs: number, minutes: number): AlertWindow {
  const length = minutes * MINUTE_MS;
  const index = Math.floor(nowMs / length);
  return { index, fromMs: index * length, toMs: (index + 1) * length };
}

/** [now - minutes, now), on whole seconds: the range the refusal rate is measured over. */
export function trailingRange(nowMs: number, minutes: number): { fromMs: number; toMs: number } {
  const toMs = Math.floor(nowMs / 1000) * 1000;
  return { fromMs: toMs - minutes * MINUTE_MS, toMs };
}

/** The epoch minutes of the trailing `windowMinutes` minutes, the current one included. */
export function trailingMinutes(nowMs: number, windowMinutes: number): number[] {
  const current = Math.floor(nowMs / MINUTE_MS);
  return Array.from({ length: windowMinutes }, (_, i) => current - windowMinutes + 1 + i);
}

/** The observation when the condition holds, else null. */
export function refusalRateFires(condition: RefusalRateCondition, totals: RefusalTotals): RefusalObservation | null {
  const requests = totals.allowed + totals.refused;
  if (requests === 0 || requests < condition.minRequests) return null;
  const refusedPct = (100 * totals.refused) / requests;
  return refusedPct > condition.thresholdPct
    ? { requests, refused: totals.refused, refusedPct: Math.round(refusedPct * 100) / 100 }
    : null;
}

/**
 * Subjects with at least `hits` refusals, most first (ties by member), at most MAX_CLIENTS_LISTED;
 * `counts` maps a limited member (JSON, lib/monitoring/record/limitedSubjects.ts) to its refusals in the window.
 * Members of another tenant or that cannot be read are ignored.
 */
export function clientsOverLimit(
  condition: ClientLimitCondition,
  tenantId: string,
  counts: Map<string, number>,
): LimitHit[] {
  const over: [string, LimitHit][] = [];
  for (const [member, hits] of counts) {
    if (hits < condition.hits) continue;
    const subject = parseLimitedMember(member);
    if (!subject || subject.tenantId !== tenantId) continue;
    over.push([member, { subject: { ref: subject.ref, scope: subject.scope, value: subject.value }, hits }]);
  }
  over.sort((a, b) => b[1].hits - a[1].hits || (a[0] < b[0] ? -1 : 1));
  return over.slice(0, MAX_CLIENTS_LISTED).map(([, hit]) => hit);
}
