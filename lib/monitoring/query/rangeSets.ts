/**
 * The per-period sorted sets of a range, read in one plan: for each set named (hot callers and
 * their refusals, hot descriptors and theirs), the members and scores of every period the range
 * overlaps, per-minute sets up to 1 h and per-hour sets beyond (timeBuckets.ts setResolution), in
 * the scope of one tenant or, without `tenantId`, the global one. Rejects as ReadPlan.run does
 * (503 `limiter_unavailable`) when Redis cannot answer in time.
 */
import { GLOBAL_SCOPE, monitoringKeys, type MonitoringKeys, type Resolution } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { ReadPlan, scored } from "./readPlan";
import { periodsCovering, periodStartMs, setResolution } from "./timeBuckets";

type PeriodSet = "hotKeys" | "refusals" | "hotDescriptors" | "descriptorRefusals";

export interface RangeSets<N extends PeriodSet> {
  scope: string;
  resolution: Resolution;
  /** Per set, the member/score pairs of all its periods, in period order. */
  sets: Record<N, [string, number][]>;
  /** The same, period by period (with each period's start, epoch ms). */
  periods: { startMs: number; sets: Record<N, [string, number][]> }[];
}

export async function readRangeSets<N extends PeriodSet>(
  deps: MonitoringReadDeps,
  input: { tenantId?: string; fromMs: number; toMs: number },
  names: readonly N[],
): Promise<RangeSets<N>> {
  const scope = input.tenantId ?? GLOBAL_SCOPE;
  const keys: MonitoringKeys = monitoringKeys(deps.prefix, scope);
  const resolution = setResolution(input.fromMs, input.toMs);
  const plan = new ReadPlan();
  const indexes = periodsCovering(resolution, input.fromMs, input.toMs);
  const reads = indexes.map((index) =>
    names.map((name) => plan.add(scope, ["ZRANGE", keys[name](resolution, index), 0, -1, "WITHSCORES"])),
  );
  const replies = await plan.run(deps.redis, deps.timeoutMs);
  const periods = reads.map((handles, p) => ({
    startMs: periodStartMs(resolution, indexes[p]!),
    sets: Object.fromEntries(names.map((name, i) => [name, scored(replies(handles[i]!))])) as Record<
      N,
      [string, number][]
    >,
  }));
  const sets = Object.fromEntries(
    names.map((name) => [name, periods.flatMap((period) => period.sets[name])]),
  ) as Record<N, [string, number][]>;
  return { scope, resolution, sets, periods };
}
