/**
 * A tenant's upstream health over a range (issue 31, point 4): the answers its clients got through
 * the gateway by status class, the 502s (unreachable) and 504s (no answer in time) apart, and the
 * time to the answer's status as percentiles, from the per-minute cells the recorder writes
 * (lib/monitoring/record/upstreamOutcomes.ts). Minutes overlapping [fromMs, toMs) count whole.
 * Percentiles are the upper bound of the histogram bucket they fall in (`null` without answers, and
 * also when past the last bound: then slower than `slowerThanMs`).
 * Validation: `upstreamHealthQuerySchema` (422); Redis down or slow: 503.
 */
import { z } from "zod";
import { parseInput } from "../../http/validate";
import { monitoringKeys, MINUTE_MS, HOUR_MS } from "../record/monitoringKeys";
import { LATENCY_BOUNDS_MS, STATUS_FIELDS, type StatusField } from "../record/upstreamOutcomes";
import type { MonitoringReadDeps } from "./readDeps";
import { monitoringTenantIdSchema } from "./monitoringSchemas";
import { pairs, ReadPlan } from "./readPlan";
import { periodsCovering } from "./timeBuckets";
import type { UpstreamHealth } from "./monitoringAnswers";

export const upstreamHealthQuerySchema = z
  .object({ tenantId: monitoringTenantIdSchema, fromMs: z.number().int().min(0), toMs: z.number().int().min(0) })
  .refine((q) => q.toMs > q.fromMs && q.toMs - q.fromMs <= 24 * HOUR_MS, {
    message: "the range must be after its start and at most 24 h",
    path: ["fromMs"],
  });
export type UpstreamHealthQuery = z.input<typeof upstreamHealthQuerySchema>;

const CELL = /^(\d{1,2}):(.+)$/;

/** The bucket bound at quantile q of a histogram (counts per bucket); null without counts or past the last bound. */
export function percentileOf(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) return LATENCY_BOUNDS_MS[i] ?? null;
  }
  return null;
}

export async function upstreamHealth(deps: MonitoringReadDeps, query: UpstreamHealthQuery): Promise<UpstreamHealth> {
  const input = parseInput(upstreamHealthQuerySchema, query);
  const keys = monitoringKeys(deps.prefix, input.tenantId);
  const plan = new ReadPlan();
  const reads = periodsCovering("hour", input.fromMs, input.toMs).map((hour) => ({
    hour,
    handle: plan.add(input.tenantId, ["HGETALL", keys.upstream(hour)]),
  }));
  const replies = await plan.run(deps.redis, deps.timeoutMs);
  const byStatus = Object.fromEntries(STATUS_FIELDS.map((f) => [f, 0])) as Record<StatusField, number>;
  const histogram: number[] = new Array(LATENCY_BOUNDS_MS.length + 1).fill(0);
  const first = Math.floor(input.fromMs / MINUTE_MS);
  const last = Math.ceil(input.toMs / MINUTE_MS) - 1;
  for (const { hour, handle } of reads) {
    for (const [field, value] of pairs(replies(handle))) {
      const cell = CELL.exec(field);
      const n = Number(value);
      if (!cell || !Number.isFinite(n)) continue;
      const minute = hour * 60 + Number(cell[1]);
      if (minute < first || minute > last) continue;
      const name = cell[2]!;
      if ((STATUS_FIELDS as readonly string[]).includes(name)) byStatus[name as StatusField] += n;
      else if (/^l\d+$/.test(name)) {
        const i = Number(name.slice(1));
        if (i < histogram.length) histogram[i]! += n;
      }
    }
  }
  return {
    tenantId: input.tenantId,
    fromMs: input.fromMs,
    toMs: input.toMs,
    answers: histogram.reduce((a, b) => a + b, 0),
    byStatus,
    latency: {
      p50: percentileOf(histogram, 0.5),
      p90: percentileOf(histogram, 0.9),
      p99: percentileOf(histogram, 0.99),
      slowerThanMs: LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!,
    },
  };
}
