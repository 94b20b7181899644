/**
 * Reads what alert conditions look at from the monitoring data Sluice already records
 * (lib/monitoring/record/monitoringKeys.ts), in one round of pipelined reads of the tenant's own keys (one
 * hash tag, so one slot on a Cluster): the series of the tenant's requests (`*`) over a range, and
 * the per-minute "limited" counts (`mc`) of some minutes, summed by subject. Ranges shorter than
 * PER_SECOND_UP_TO_MS are read from the per-second data (a few hashes); longer ones from the
 * per-minute data, the range's start rounded down to its minute (at most 2 hashes instead of 61).
 * Rejects with AppError `limiter_unavailable` when Redis does not answer in time (readPlan.ts).
 */
import type { RedisClient } from "../../redis/connect";
import { monitoringKeys, TOTAL_REF } from "../../monitoring/record/monitoringKeys";
import { ReadPlan, scored } from "../../monitoring/query/readPlan";
import { planSeries } from "../../monitoring/query/seriesReader";
import type { RefusalTotals } from "./alertConditions";

export const PER_SECOND_UP_TO_MS = 10 * 60_000;

export interface ObservationDeps {
  redis: RedisClient;
  prefix: string;
  timeoutMs: number;
}

export interface ObservationRequest {
  /** The range of the refusal rate, whole seconds. */
  refusalRange?: { fromMs: number; toMs: number };
  /** Epoch minutes of the client-limit window. */
  limitMinutes?: number[];
}

export interface Observations {
  totals?: RefusalTotals;
  /** Limited member → refusals summed over the minutes. */
  limitCounts?: Map<string, number>;
}

export async function readObservations(
  deps: ObservationDeps,
  tenantId: string,
  request: ObservationRequest,
): Promise<Observations> {
  const plan = new ReadPlan();
  const range = request.refusalRange;
  let series: ReturnType<typeof planSeries> | null = null;
  if (range) {
    // One bucket spanning the range.
    const perSecond = range.toMs - range.fromMs < PER_SECOND_UP_TO_MS;
    const startMs = perSecond ? range.fromMs : Math.floor(range.fromMs / 60_000) * 60_000;
    series = planSeries(plan, deps.prefix, tenantId, TOTAL_REF, {
      startMs,
      toMs: range.toMs,
      stepMs: range.toMs - startMs,
      source: perSecond ? "second" : "minute",
    });
  }
  const keys = monitoringKeys(deps.prefix, tenantId);
  const limited = (request.limitMinutes ?? []).map((minute) =>
    plan.add(tenantId, ["ZRANGE", keys.limitedCounts(minute), 0, -1, "WITHSCORES"]),
  );
  const replies = await plan.run(deps.redis, deps.timeoutMs);
  const out: Observations = {};
  if (series) {
    const point = series(replies)[0];
    out.totals = { allowed: point?.allowed ?? 0, refused: point?.refused ?? 0 };
  }
  if (request.limitMinutes) {
    const counts = new Map<string, number>();
    for (const handle of limited)
      for (const [member, n] of scored(replies(handle))) counts.set(member, (counts.get(member) ?? 0) + n);
    out.limitCounts = counts;
  }
  return out;
}
