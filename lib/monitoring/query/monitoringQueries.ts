/**
 * The monitoring read side as one object, bound to its Redis client, key prefix and directory of
 * names: what the admin API and the dashboard call (traffic series, refusal rates, hot callers, hot
 * Envoy descriptors,
 * clients near their limit, who is limited right now, a key's recent decisions). Each query validates its input with its zod
 * schema (lib/monitoring/query/monitoringSchemas.ts; a bad input is a 422 AppError) and answers 503
 * (AppError `limiter_unavailable`) when Redis cannot answer within `timeoutMs`.
 */
import { callerHistory, type CallerHistoryQuery } from "./callerHistoryQuery";
import type { CallerHistory } from "./monitoringAnswers";
import { hotDescriptors } from "./hotDescriptorsQuery";
import type { HotDescriptors } from "./monitoringAnswers";
import { hotKeys } from "./hotKeysQuery";
import type { HotKeys } from "./monitoringAnswers";
import type { MonitoringDirectory } from "./monitoringDirectory";
import type { MonitoringReadDeps } from "./readDeps";
import { limitedNow, type LiveRules } from "./limitedNowQuery";
import type { LimitedNow } from "./monitoringAnswers";
import type {
  HotKeysQuery,
  LimitedNowQuery,
  NearLimitQuery,
  RecentDecisionsQuery,
  RefusalRateQuery,
  TrafficQuery,
} from "./monitoringSchemas";
import { nearLimit } from "./nearLimitQuery";
import type { NearLimit } from "./monitoringAnswers";
import { recentDecisions } from "./recentDecisionsQuery";
import type { RecentDecisions } from "./monitoringAnswers";
import { refusalRate } from "./refusalRateQuery";
import type { RefusalRates } from "./monitoringAnswers";
import { trafficSeries } from "./trafficQuery";
import type { TrafficSeries } from "./monitoringAnswers";
import { upstreamHealth, type UpstreamHealthQuery } from "./upstreamHealthQuery";
import type { UpstreamHealth } from "./monitoringAnswers";

export interface MonitoringQueries {
  directory: MonitoringDirectory;
  trafficSeries(query: TrafficQuery): Promise<TrafficSeries>;
  refusalRate(query: RefusalRateQuery): Promise<RefusalRates>;
  hotKeys(query: HotKeysQuery): Promise<HotKeys>;
  /** The descriptor subjects of Envoy's calls with the most calls (same query as hotKeys). */
  hotDescriptors(query: HotKeysQuery): Promise<HotDescriptors>;
  nearLimit(query: NearLimitQuery): Promise<NearLimit>;
  /** Refused in the last minute, with the live quota (none when built without `live`). */
  limitedNow(query: LimitedNowQuery): Promise<LimitedNow>;
  recentDecisions(query: RecentDecisionsQuery): Promise<RecentDecisions>;
  /** A tenant's upstream answers: status classes, 502/504, latency percentiles. */
  upstreamHealth(query: UpstreamHealthQuery): Promise<UpstreamHealth>;
  /** One caller's requests and refusals over time, by rule (the key and caller pages). */
  callerHistory(query: CallerHistoryQuery): Promise<CallerHistory>;
}

export function monitoringQueries(deps: MonitoringReadDeps, live?: LiveRules): MonitoringQueries {
  return {
    directory: deps.directory,
    trafficSeries: (query) => trafficSeries(deps, query),
    refusalRate: (query) => refusalRate(deps, query),
    hotKeys: (query) => hotKeys(deps, query),
    hotDescriptors: (query) => hotDescriptors(deps, query),
    nearLimit: (query) => nearLimit(deps, query),
    limitedNow: (query) => limitedNow(deps, live, query),
    recentDecisions: (query) => recentDecisions(deps, query),
    upstreamHealth: (query) => upstreamHealth(deps, query),
    callerHistory: (query) => callerHistory(deps, query),
  };
}
