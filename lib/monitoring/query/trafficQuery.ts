/**
 * Allowed, refused and shadow-refused requests over time: every real tenant together (no
 * tenantId), one tenant's requests (tenantId), or one rule of a tenant (tenantId + ruleRef).
 *
 * For a tenant (or all), `allowed` + `refused` are its requests, and `shadowRefused` counts the
 * admitted ones that a shadow rule would have refused. For a rule, the three are disjoint: the
 * requests the rule passed, refused (enforce) or would have refused (shadow).
 * Points: lib/monitoring/query/timeBuckets.ts. Validation: `trafficQuerySchema` (422).
 */
import { parseInput } from "../../http/validate";
import type { RuleLabel } from "./monitoringDirectory";
import { GLOBAL_SCOPE, TOTAL_REF } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { trafficQuerySchema, type TrafficQuery } from "./monitoringSchemas";
import { ReadPlan } from "./readPlan";
import { planSeries, type SeriesPoint } from "./seriesReader";
import { timeGrid } from "./timeBuckets";

export interface TrafficSeries {
  /** Start of the first bucket (may precede the requested fromMs; see timeBuckets.ts). */
  fromMs: number;
  toMs: number;
  stepMs: number;
  source: "second" | "minute";
  tenantId: string | null;
  rule: RuleLabel | null;
  points: SeriesPoint[];
}

export async function trafficSeries(deps: MonitoringReadDeps, query: TrafficQuery): Promise<TrafficSeries> {
  const input = parseInput(trafficQuerySchema, query);
  const grid = timeGrid(input.fromMs, input.toMs, input.stepMs);
  const plan = new ReadPlan();
  const series = planSeries(plan, deps.prefix, input.tenantId ?? GLOBAL_SCOPE, input.ruleRef ?? TOTAL_REF, grid);
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
  };
}
