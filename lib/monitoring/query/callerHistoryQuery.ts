/**
 * One caller's history (issue 31, point 3): its requests and refusals per period, the refusals
 * also per refusing rule, for the key page and the caller page (JWT subjects, anonymous
 * addresses). Read from the hot-callers sets (`mk`, `mx`: lib/monitoring/record/monitoringKeys.ts):
 * per minute for ranges up to 1 h, per hour beyond (timeBuckets.ts setResolution), every period
 * the range overlaps counted whole. Those sets keep the top HOT_KEYS_KEPT callers (REFUSALS_KEPT
 * refusal entries) of each period, so a caller outside them shows fewer requests than it made: the
 * callers an operator looks at during an incident (the heavy hitters) are exact.
 *
 * A request refused by two enforce rules counts once in `refused` and under each rule in
 * `byRule`. `current` is the last complete minute before `toMs` (the rate "now").
 * Validation: `callerHistoryQuerySchema` (422); Redis down or slow: 503.
 */
import { z } from "zod";
import { parseInput } from "../../http/validate";
import { callerOfMember } from "../record/callerMember";
import { DAY_MS, MINUTE_MS } from "../record/monitoringKeys";
import { labelRules } from "./monitoringDirectory";
import { callerMemberSchema } from "./callerMemberSchema";
import { monitoringTenantIdSchema } from "./monitoringSchemas";
import type { MonitoringReadDeps } from "./readDeps";
import { readRangeSets } from "./rangeSets";
import type { CallerHistory, CallerHistoryPoint } from "./monitoringAnswers";

export const callerHistoryQuerySchema = z
  .object({
    tenantId: monitoringTenantIdSchema,
    caller: callerMemberSchema,
    fromMs: z.number().int().min(0),
    toMs: z.number().int().min(0),
  })
  .strict()
  .refine((q) => q.toMs > q.fromMs && q.toMs - q.fromMs <= DAY_MS, {
    message: "the range must be after its start and at most 24 h",
    path: ["fromMs"],
  });
export type CallerHistoryQuery = z.input<typeof callerHistoryQuerySchema>;

export async function callerHistory(deps: MonitoringReadDeps, query: CallerHistoryQuery): Promise<CallerHistory> {
  const input = parseInput(callerHistoryQuerySchema, query);
  const { tenantId, caller } = input;
  const { resolution, periods } = await readRangeSets(deps, input, ["hotKeys", "refusals"] as const);
  const prefix = `${caller}/`;
  const byRuleTotal = new Map<string, number>();
  const points: CallerHistoryPoint[] = periods.map((period) => {
    const point: CallerHistoryPoint = { t: period.startMs, requests: 0, refused: 0, byRule: {} };
    for (const [member, n] of period.sets.hotKeys) if (member === caller) point.requests += n;
    for (const [member, n] of period.sets.refusals) {
      if (member === caller) point.refused += n;
      else if (member.startsWith(prefix)) {
        const ref = member.slice(prefix.length);
        point.byRule[ref] = (point.byRule[ref] ?? 0) + n;
        byRuleTotal.set(ref, (byRuleTotal.get(ref) ?? 0) + n);
      }
    }
    return point;
  });
  const label = await labelRules(
    deps.directory,
    [...byRuleTotal.keys()].map((ref) => [tenantId, ref] as [string, string]),
  );
  const rules = [...byRuleTotal]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([ref, refused]) => ({ ...label(tenantId, ref), refused }));
  const currentStart = Math.floor(input.toMs / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
  const currentPoint = resolution === "minute" ? points.find((p) => p.t === currentStart) : undefined;
  const { kind, caller: shown } = callerOfMember(caller);
  return {
    tenantId,
    caller,
    kind,
    shown,
    fromMs: input.fromMs,
    toMs: input.toMs,
    resolution,
    stepMs: resolution === "minute" ? MINUTE_MS : 60 * MINUTE_MS,
    points,
    rules,
    totals: {
      requests: points.reduce((s, p) => s + p.requests, 0),
      refused: points.reduce((s, p) => s + p.refused, 0),
    },
    current: {
      fromMs: currentStart,
      toMs: currentStart + MINUTE_MS,
      requests: currentPoint?.requests ?? 0,
      refused: currentPoint?.refused ?? 0,
    },
  };
}
