/**
 * The 429 rate over time, per tenant and per rule.
 *
 * - Without tenantId: `byTenant` has the `limit` tenants with the most refused requests (ties and
 *   tenants without refusals by id), the pseudo-tenant `-anon` included; `byRule` the `limit`
 *   rules of those tenants with the most refusals plus would-be refusals (so a shadow rule on
 *   trial ranks by what it would have refused).
 * - With tenantId: `byTenant` is that tenant alone, `byRule` its `limit` rules ranked likewise.
 * Every point and total carries `refused` (real refusals) and `shadowRefused` (what shadow rules
 * would have refused) apart, with a percentage each; each rule's label carries its current mode.
 * Tenants and rules are ranked by the hourly indexes of every hour the range overlaps (coarser at
 * the edges than the range); the series themselves are exact. For a tenant line `requests` is
 * allowed + refused; for a rule line it is every request the rule was evaluated for (allowed +
 * refused + shadowRefused). Percentages are null where there were no requests.
 */
import { parseInput } from "../../http/validate";
import { labelRules } from "./monitoringDirectory";
import type { RuleLabel } from "./monitoringAnswers";
import { GLOBAL_SCOPE, monitoringKeys, TOTAL_REF } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { refusalRateQuerySchema, type RefusalRateQuery } from "./monitoringSchemas";
import { ReadPlan, scored, type ReadHandle } from "./readPlan";
import { planSeries } from "./seriesReader";
import type { SeriesPoint } from "./monitoringAnswers";
import { periodsCovering, timeGrid, type TimeGrid } from "./timeBuckets";
import type { RateLine, RatePoint, RefusalRates } from "./monitoringAnswers";

type Rates = Pick<RatePoint, "requests" | "refusedPct" | "shadowRefusedPct">;

type Counts = Omit<SeriesPoint, "t">;

const pct = (part: number, whole: number): number | null => (whole > 0 ? (100 * part) / whole : null);

function rated<P extends Counts>(point: P, perRule: boolean): P & Rates {
  const requests = point.allowed + point.refused + (perRule ? point.shadowRefused : 0);
  return {
    ...point,
    requests,
    refusedPct: pct(point.refused, requests),
    shadowRefusedPct: pct(point.shadowRefused, requests),
  };
}

function line(tenantId: string, tenantName: string | null, rule: RuleLabel | null, points: SeriesPoint[]): RateLine {
  const sum: Counts = { allowed: 0, refused: 0, shadowRefused: 0 };
  for (const p of points) {
    sum.allowed += p.allowed;
    sum.refused += p.refused;
    sum.shadowRefused += p.shadowRefused;
  }
  return {
    tenantId,
    tenantName,
    rule,
    total: rated(sum, rule !== null),
    points: points.map((p) => rated(p, rule !== null)),
  };
}

/** Sums the scores of several sorted sets; highest first, ties by member. */
async function ranked(
  deps: MonitoringReadDeps,
  reads: { scope: string; key: string }[],
): Promise<[string, string, number][]> {
  const plan = new ReadPlan();
  const handles: [string, ReadHandle][] = reads.map(({ scope, key }) => [
    scope,
    plan.add(scope, ["ZRANGE", key, 0, -1, "WITHSCORES"]),
  ]);
  const replies = await plan.run(deps.redis, deps.timeoutMs);
  const sums = new Map<string, [string, string, number]>();
  for (const [scope, handle] of handles) {
    for (const [member, score] of scored(replies(handle))) {
      const id = `${scope}\n${member}`;
      const entry = sums.get(id) ?? [scope, member, 0];
      entry[2] += score;
      sums.set(id, entry);
    }
  }
  const byId = (x: [string, string, number], y: [string, string, number]) =>
    x[0] === y[0] ? (x[1] < y[1] ? -1 : 1) : x[0] < y[0] ? -1 : 1;
  return [...sums.values()].sort((x, y) => y[2] - x[2] || byId(x, y));
}

async function rankedTenants(deps: MonitoringReadDeps, hours: number[], limit: number): Promise<string[]> {
  const keys = monitoringKeys(deps.prefix, GLOBAL_SCOPE);
  const tenants = await ranked(
    deps,
    hours.map((h) => ({ scope: GLOBAL_SCOPE, key: keys.tenants(h) })),
  );
  return tenants.slice(0, limit).map(([, tenantId]) => tenantId);
}

async function rankedRules(
  deps: MonitoringReadDeps,
  tenantIds: string[],
  hours: number[],
  limit: number,
): Promise<[string, string][]> {
  const reads = tenantIds.flatMap((tenantId) =>
    hours.map((h) => ({ scope: tenantId, key: monitoringKeys(deps.prefix, tenantId).rules(h) })),
  );
  const rules = await ranked(deps, reads);
  return rules.slice(0, limit).map(([tenantId, ref]) => [tenantId, ref]);
}

async function readLines(
  deps: MonitoringReadDeps,
  grid: TimeGrid,
  tenantIds: string[],
  rules: [string, string][],
): Promise<{ byTenant: RateLine[]; byRule: RateLine[] }> {
  const plan = new ReadPlan();
  const tenantSeries = tenantIds.map((id) => planSeries(plan, deps.prefix, id, TOTAL_REF, grid));
  const ruleSeries = rules.map(([id, ref]) => planSeries(plan, deps.prefix, id, ref, grid));
  const replies = await plan.run(deps.redis, deps.timeoutMs);
  const label = await labelRules(deps.directory, rules);
  const name = (id: string) => deps.directory.tenantName(id);
  return {
    byTenant: tenantIds.map((id, i) => line(id, name(id), null, tenantSeries[i]!(replies))),
    byRule: rules.map(([id, ref], i) => line(id, name(id), label(id, ref), ruleSeries[i]!(replies))),
  };
}

export async function refusalRate(deps: MonitoringReadDeps, query: RefusalRateQuery): Promise<RefusalRates> {
  const input = parseInput(refusalRateQuerySchema, query);
  const grid = timeGrid(input.fromMs, input.toMs, input.stepMs);
  const hours = periodsCovering("hour", grid.startMs, grid.toMs);
  const tenantIds = input.tenantId ? [input.tenantId] : await rankedTenants(deps, hours, input.limit);
  const rules = await rankedRules(deps, tenantIds, hours, input.limit);
  const lines = await readLines(deps, grid, tenantIds, rules);
  return { fromMs: grid.startMs, toMs: grid.toMs, stepMs: grid.stepMs, source: grid.source, ...lines };
}
