/**
 * The monitoring parts of the process (lib/runtime/services.ts creates them once): the decision
 * recorder, flushing every second, and the queries, both on a Redis connection of their own so a
 * flush pipeline never queues ahead of the limiter's calls, with a longer timeout than the
 * limiter's (MONITORING_TIMEOUT_MS) because its writes and reads are bigger and never on a
 * request's critical path. Flush outcomes and overflow are counted in the Prometheus metrics.
 */
import { getKey } from "../policy/keys/keyStore";
import { config } from "../config/config";
import { AppError } from "../http/errors";
import type { AccessCache } from "../policy/compiled/accessCache";
import { configuredRedisClient } from "../redis/client";
import type { RedisClient } from "../redis/connect";
import { listRuleRefs } from "../policy/rules/ruleRefs";
import { DecisionRecorder } from "./record/decisionRecorder";
import { metrics } from "./prometheus/metrics";
import { createLimiter, type Limiter } from "../limiter/decide";
import { accessDirectory, liveRuleOf, type StoredKeyTenant } from "./query/monitoringDirectory";
import { monitoringQueries, type MonitoringQueries } from "./query/monitoringQueries";

export const MONITORING_TIMEOUT_MS = 2_000;

export interface Monitoring {
  recorder: DecisionRecorder;
  queries: MonitoringQueries;
  /**
   * The connection itself, for other work off the request path that must not fail at the
   * limiter's short deadline under load: the dashboard's quota peeks, change notices.
   */
  redis: RedisClient;
  /**
   * Peeks for the dashboard (quota views, "limited right now"): the limiter's script on this
   * connection with its longer deadline, so a loaded Redis that misses the live limiter's budget
   * still answers; no local fallback (a quota view never shows a made-up figure).
   */
  peekLimiter: Limiter;
}

const storedKeyTenant: StoredKeyTenant = async (keyId) => {
  try {
    return (await getKey(keyId)).tenantId;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
};

export function createMonitoring(access: AccessCache): Monitoring {
  const c = config();
  const m = metrics();
  // Its own client (a longer timeout than decisions'), on the same Redis: single node, Cluster or Sentinel.
  const redis = configuredRedisClient("monitoring", MONITORING_TIMEOUT_MS);
  const recorder = new DecisionRecorder({
    redis,
    prefix: c.redisPrefix,
    timeoutMs: MONITORING_TIMEOUT_MS,
    traceMaxLen: c.simMaxRequests,
    onFlush: (outcome, overflow) => {
      m.monitoringFlushes.inc({ outcome });
      if (overflow > 0) m.monitoringOverflow.inc(overflow);
    },
  });
  recorder.start();
  const peekLimiter = createLimiter({
    redis,
    prefix: c.redisPrefix,
    timeoutMs: MONITORING_TIMEOUT_MS,
    timeSource: c.timeSource,
  });
  const queries = monitoringQueries(
    {
      redis,
      prefix: c.redisPrefix,
      timeoutMs: MONITORING_TIMEOUT_MS,
      directory: accessDirectory(access, listRuleRefs, storedKeyTenant),
    },
    {
      rule: liveRuleOf(access, c.anonLimitPerMinute),
      peek: (rules, subject, options) => peekLimiter.peek(rules, subject, options),
    },
  );
  return { recorder, queries, redis, peekLimiter };
}
