/**
 * The process's long-lived parts, wired once: the limiter (with refusal cache, local fail mode and
 * metrics), the rule simulator, the access cache with its change subscription and periodic refresh, the change
 * publisher, and the first admin operator (from SLUICE_ADMIN_EMAIL / SLUICE_ADMIN_PASSWORD, created
 * in the background if no operator exists yet; lib/control/auth/firstAdmin.ts). Kept on globalThis
 * because Next bundles each route separately and all must share them.
 */
import { config } from "../config/config";
import { AppError } from "../http/errors";
import { createLimiter, type Limiter } from "../limiter/decide";
import { LocalLimiter } from "../limiter/localLimiter";
import { RefusalCache } from "../limiter/refusalCache";
import { configuredRedisClient, getRedis } from "../redis/client";
import { metrics } from "../monitoring/prometheus/metrics";
import { AccessCache } from "../policy/compiled/accessCache";
import { rulesFingerprint } from "../policy/compiled/rulesFingerprint";
import { prismaAccessLoader } from "../policy/compiled/accessLoader";
import { announceChange } from "../policy/changes/announceChange";
import { publishChange, publishReset, subscribeChanges } from "../policy/changes/changeBus";
import { KeyUsage } from "../dataplane/admission/keyUsage";
import type { DecisionRecorder } from "../monitoring/record/decisionRecorder";
import { createMonitoring, MONITORING_TIMEOUT_MS } from "../monitoring/monitoringServices";
import type { MonitoringQueries } from "../monitoring/query/monitoringQueries";
import { ensureFirstAdmin } from "../control/auth/firstAdmin";
import { createSimulator, SIMULATION_TIMEOUT_MS, type Simulator } from "../control/simulator/simulator";
import { prismaSimulationStore } from "../control/simulator/simulationStore";
import { errorSummary } from "../http/redactSecrets";
import type { CounterResetDeps } from "../control/admin/counterResetService";
import { createAlerts, type AlertServices } from "../control/alerts/alertServices";

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
  /** In-product alerts: the background evaluator and the tenants' last deliveries (lib/control/alerts). */
  alerts: AlertServices;
  /** Deletes counters for the admin API's resets (on the monitoring connection, its longer deadline). */
  counterReset: CounterResetDeps;
  /**
   * Applies a committed change of a tenant's keys or rules here and announces it to every
   * instance; throws AppError `change_not_in_force` (503) when this instance could not apply it
   * (lib/policy/changes/announceChange.ts). `saved`: what the 503 should still carry (a created key).
   */
  announce(tenantId: string, saved?: unknown): Promise<void>;
  /**
   * After a counter reset of the tenant: drops its cached refusals here and tells every instance to
   * do the same; rejects (AppError `limiter_unavailable`, 503) when the notice could not be sent.
   */
  announceReset(tenantId: string): Promise<void>;
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
    legacyKeys: c.legacyCounterKeys,
    textSubjectValues: c.textSubjectValues,
    refusals,
    local: new LocalLimiter(),
    onUnavailable: (error, rules) => {
      m.redisErrors.inc({ kind: error.kind });
      for (const rule of rules) m.failModeActivations.inc({ mode: rule.failMode });
    },
  });
  const access = new AccessCache(prismaAccessLoader, {
    onReload: (kind, outcome) => m.cacheReloads.inc({ kind, outcome }),
    // Cached refusals go only when the tenant's rules really changed, not on every full refresh.
    onTenantReplaced: (tenantId, tenant) => refusals.rulesLoaded(tenantId, rulesFingerprint(tenant)),
  });
  access.startPeriodicRefresh(FULL_REFRESH_MS);
  const monitoring = createMonitoring(access);
  // Not awaited: a login awaits it again (and retries it if this attempt failed).
  ensureFirstAdmin().catch((error: unknown) => {
    // Masked: a failed create may render its arguments (the password hash) in the message.
    console.error("sluice: could not create the first admin yet:", errorSummary(error));
  });
  subscribeChanges(redis, c.redisPrefix, {
    // A failed reload is logged by the cache; the next full refresh retries it.
    onChange: (tenantId) => void access.tenantChanged(tenantId).catch(() => undefined),
    onSubscribed: () => void access.refreshAll().catch(() => undefined),
    onReset: (tenantId) => refusals.dropTenant(tenantId),
  });
  return {
    limiter,
    access,
    keyUsage: new KeyUsage(),
    quotaLimiter: monitoring.peekLimiter,
    recorder: monitoring.recorder,
    monitoring: monitoring.queries,
    simulator: createSimulator({
      // Its own connection: a replay's thousands of script calls never queue ahead of live decisions.
      redis: configuredRedisClient("simulator", SIMULATION_TIMEOUT_MS),
      prefix: c.redisPrefix,
      store: prismaSimulationStore,
      maxReplay: c.simMaxRequests,
      onRun: (run) => {
        m.simulations.inc({ outcome: run.outcome });
        m.simulationSeconds.observe(run.seconds);
        m.simulationRequests.inc(run.requests);
      },
    }),
    alerts: createAlerts(access, monitoring.redis, MONITORING_TIMEOUT_MS),
    counterReset: { prefix: c.redisPrefix, deleteKeys: (keys) => monitoring.redis.del(...keys) },
    async announceReset(tenantId) {
      refusals.dropTenant(tenantId);
      try {
        await publishReset(monitoring.redis, c.redisPrefix, tenantId);
      } catch (error) {
        throw new AppError(
          "limiter_unavailable",
          `The counters were reset, but other instances could not be told to forget their cached refusals (${(error as Error).message}); they may refuse until those expire. Retry the reset.`,
          { headers: { "Retry-After": "5" } },
        );
      }
    },
    announce(tenantId, saved) {
      // This instance applies the change before answering (or the answer says it could not); the
      // others within ~1 ms of the notice.
      return announceChange(
        {
          reload: (id) => access.tenantChanged(id),
          // On the monitoring connection: a notice must not be lost to the limiter's short deadline.
          publish: (id) => publishChange(monitoring.redis, c.redisPrefix, id),
          refreshSeconds: FULL_REFRESH_MS / 1000,
        },
        tenantId,
        saved,
      );
    },
  };
}

const globalForServices = globalThis as unknown as { sluiceServices?: Services };

export function services(): Services {
  globalForServices.sluiceServices ??= create();
  return globalForServices.sluiceServices;
}
