/**
 * The process's long-lived parts, wired once: the limiter (with refusal cache, local fail mode and
 * metrics), the rule simulator, the access cache with its change subscription and periodic refresh, the change
 * publisher, and the first admin operator (from SLUICE_ADMIN_EMAIL / SLUICE_ADMIN_PASSWORD, created
 * in the background if no operator exists yet; lib/auth/firstAdmin.ts). Kept on globalThis
 * because Next bundles each route separately and all must share them.
 */
import { config } from "../config";
import { createLimiter, type Limiter } from "../limiter/decide";
import { tenantKeyPrefix } from "../limiter/keys";
import { LocalLimiter } from "../limiter/localLimiter";
import { RefusalCache } from "../limiter/refusalCache";
import { configuredRedisClient, getRedis } from "../redis/client";
import { metrics } from "../metrics/metrics";
import { AccessCache } from "../enforce/accessCache";
import { prismaAccessLoader } from "../enforce/accessLoader";
import { publishChange, subscribeChanges } from "../enforce/changeBus";
import { KeyUsage } from "../enforce/keyUsage";
import type { DecisionRecorder } from "../metrics/decisionRecorder";
import { createMonitoring, MONITORING_TIMEOUT_MS } from "../metrics/monitoringServices";
import type { MonitoringQueries } from "../metrics/monitoringQueries";
import { ensureFirstAdmin } from "../auth/firstAdmin";
import { createSimulator, SIMULATION_TIMEOUT_MS, type Simulator } from "../simulator/simulator";
import { prismaSimulationStore } from "../simulator/simulationStore";
import { errorSummary } from "../http/redactSecrets";

/** Full reload of keys and rules, the safety net behind change notices. */
export const FULL_REFRESH_MS = 15_000;

export interface Services {
  limiter: Limiter;
  access: AccessCache;
  keyUsage: KeyUsage;
  /** Records every decision for the monitoring data (in memory; written to Redis every second). */
  recorder: DecisionRecorder;
  /** Reads the monitoring data: traffic series, refusal rates, hot keys, clients near their limit. */
  monitoring: MonitoringQueries;
  /**
   * Peeks for the admin API's quota views: the same script, on the monitoring connection with its
   * longer deadline (MONITORING_TIMEOUT_MS), so a loaded Redis that misses the live limiter's
   * budget still answers the dashboard; no local fallback (a quota view never shows a made-up figure).
   */
  quotaLimiter: Limiter;
  /** Replays recorded requests against candidate rules (on a Redis connection of its own). */
  simulator: Simulator;
  /** Announces a committed change of a tenant's keys or rules to every instance (this one too). */
  announce(tenantId: string): Promise<void>;
}

function create(): Services {
  const c = config();
  const redis = getRedis();
  const m = metrics();
  const refusals = new RefusalCache();
  const limiter = createLimiter({
    redis,
    prefix: c.redisPrefix,
    timeoutMs: c.redisTimeoutMs,
    timeSource: c.timeSource,
    refusals,
    local: new LocalLimiter(),
    onUnavailable: (_error, rules) => {
      m.redisErrors.inc();
      for (const rule of rules) m.failModeActivations.inc({ mode: rule.failMode });
    },
  });
  const access = new AccessCache(prismaAccessLoader, {
    onReload: (kind, outcome) => m.cacheReloads.inc({ kind, outcome }),
    onTenantReplaced: (tenantId) => refusals.dropTenant(tenantKeyPrefix(c.redisPrefix, tenantId)),
  });
  access.startPeriodicRefresh(FULL_REFRESH_MS);
  const monitoring = createMonitoring(access);
  // Not awaited: a login awaits it again (and retries it if this attempt failed).
  ensureFirstAdmin().catch((error: unknown) => {
    // Masked: a failed create may render its arguments (the password hash) in the message.
    console.error("sluice: could not create the first admin yet:", errorSummary(error));
  });
  subscribeChanges(redis, c.redisPrefix, {
    onChange: (tenantId) => void access.tenantChanged(tenantId),
    onSubscribed: () => void access.refreshAll().catch(() => undefined),
  });
  return {
    limiter,
    access,
    keyUsage: new KeyUsage(),
    quotaLimiter: createLimiter({ redis: monitoring.redis, prefix: c.redisPrefix, timeoutMs: MONITORING_TIMEOUT_MS, timeSource: c.timeSource }),
    recorder: monitoring.recorder,
    monitoring: monitoring.queries,
    simulator: createSimulator({
      // Its own connection: a replay's thousands of script calls never queue ahead of live decisions.
      redis: configuredRedisClient("simulator", SIMULATION_TIMEOUT_MS),
      prefix: c.redisPrefix,
      store: prismaSimulationStore,
      maxReplay: c.simMaxRequests,
    }),
    async announce(tenantId) {
      // This instance applies the change before answering; the others within ~1 ms of the notice.
      await access.tenantChanged(tenantId);
      // On the monitoring connection: a notice must not be lost to the limiter's short deadline.
      await publishChange(monitoring.redis, c.redisPrefix, tenantId);
    },
  };
}

const globalForServices = globalThis as unknown as { sluiceServices?: Services };

export function services(): Services {
  globalForServices.sluiceServices ??= create();
  return globalForServices.sluiceServices;
}
