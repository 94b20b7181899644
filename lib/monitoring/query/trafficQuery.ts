/**
 * Allowed, refused and shadow-refused requests over time: every real tenant together (no
 * tenantId), one tenant's requests (tenantId), or one rule of a tenant (tenantId + ruleRef).
 *
 * For a tenant (or all), `allowed` + `refused` are its requests, and `shadowRefused` counts the
 * admitted ones that a shadow rule would have refused. For a rule, the three are disjoint: the
 * requests the rule passed, refused (enforce) or would have refused (shadow).
 * Points: lib/monitoring/query/timeBuckets.ts. Validation: `trafficQuerySchema` (422).
 * `current`: the same counts over the CURRENT_WINDOW_MS of whole seconds that end FLUSH_LAG_MS
 * before the second of `toMs` (instances flush every second, so the latest second or two are
 * still arriving): the current rate, where the chart's last bucket is still filling (issue 31).
 * Read in the same pipeline, from the per-second data (kept whatever the range's step).
 */
import { parseInput } from "../../http/validate";
import { GLOBAL_SCOPE, TOTAL_REF } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { trafficQuerySchema, type TrafficQuery } from "./monitoringSchemas";
import { ReadPlan } from "./readPlan";
import { planSeries } from "./seriesReader";
import type { SeriesPoint } from "./monitoringAnswers";
import { timeGrid, type TimeGrid } from "./timeBuckets";
import { SECOND_MS } from "../record/monitoringKeys";
import type { CurrentCounts, TrafficSeries } from "./monitoringAnswers";

export const CURRENT_WINDOW_MS = 10 * SECOND_MS;
export const FLUSH_LAG_MS = 2 * SECOND_MS;

export async function trafficSeries(deps: MonitoringReadDeps, query: TrafficQuery): Promise<TrafficSeries> {
  const input = parseInput(trafficQuerySchema, query);
  const grid = timeGrid(input.fromMs, input.toMs, input.stepMs);
  const plan = new ReadPlan();
  const scope = input.tenantId ?? GLOBAL_SCOPE;
  const ref = input.ruleRef ?? TOTAL_REF;
  const series = planSeries(plan, deps.prefix, scope, ref, grid);
  const currentTo = Math.floor(input.toMs / SECOND_MS) * SECOND_MS - FLUSH_LAG_MS;
  // One bucket that starts where the window does (timeGrid would align it to the epoch).
  const currentGrid: TimeGrid = {
    startMs: currentTo - CURRENT_WINDOW_MS,
    toMs: currentTo,
    stepMs: CURRENT_WINDOW_MS,
    source: "second",
  };
  const current = planSeries(plan, deps.prefix, scope, ref, currentGrid);
  const replies = await plan.run(deps.redis, deps.timeoutMs);
  const rule =
    input.tenantId && input.ruleRef
      ? ((await deps.directory.describeRules(input.tenantId, [input.ruleRef])).get(input.ruleRef) ?? null)
      : null;
  return {
    fromMs: grid.startMs,
    toMs: grid.toMs,
    stepMs: grid.stepMs,
    source: grid.source,
    tenantId: input.tenantId ?? null,
    rule,
    points: series(replies),
    current: { fromMs: currentGrid.startMs, toMs: currentTo, ...countsOf(current(replies)[0]) },
  };
}

function countsOf(point: SeriesPoint | undefined): Omit<CurrentCounts, "fromMs" | "toMs"> {
  return { allowed: point?.allowed ?? 0, refused: point?.refused ?? 0, shadowRefused: point?.shadowRefused ?? 0 };
}
