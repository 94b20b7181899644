/**
 * The control plane's long-lived parts, wired once per thread on top of the data plane's
 * (lib/runtime/dataPlaneServices.ts: limiter, access cache, recorder, key usage): the monitoring
 * queries and quota peeks, the rule simulator, the alerts, counter resets, the change publisher
 * (`announce`, `announceReset`) and the first admin operator (from SLUICE_ADMIN_EMAIL /
 * SLUICE_ADMIN_PASSWORD, created in the background if no operator exists yet;
 * lib/control/auth/firstAdmin.ts). Kept on globalThis because Next bundles each route separately
 * and all must share them.
 *
 * Under `npm start` this runs in the control plane's worker thread and the data plane in the main
 * thread, each with its own data-plane set: a change or a reset reaches the main thread over the
 * plane link (lib/runtime/planeLink.ts) before the admin API answers, as it reaches other
 * instances over the change bus.
 */
import { config } from "../config/config";
import { AppError } from "../http/errors";
import type { Limiter } from "../limiter/decide";
import { configuredRedisClient } from "../redis/client";
import { metrics } from "../monitoring/prometheus/metrics";
import type { AccessCache } from "../policy/compiled/accessCache";
import { announceChange } from "../policy/changes/announceChange";
import { publishChange, publishReset } from "../policy/changes/changeBus";
import { noteDelayedChange } from "../policy/changes/changeReach";
import type { KeyUsage } from "../policy/keys/keyUsage";
import type { DecisionRecorder } from "../monitoring/record/decisionRecorder";
import { MONITORING_TIMEOUT_MS } from "../monitoring/monitoringServices";
import type { MonitoringQueries } from "../monitoring/query/monitoringQueries";
import { ensureFirstAdmin } from "../control/auth/firstAdmin";
import { createSimulator, SIMULATION_TIMEOUT_MS, type Simulator } from "../control/simulator/simulator";
import { prismaSimulationStore } from "../control/simulator/simulationStore";
import { errorSummary } from "../http/redactSecrets";
import type { CounterResetDeps } from "../control/admin/counterResetService";
import { createAlerts, type AlertServices } from "../control/alerts/alertServices";
import { dataPlaneServices, FULL_REFRESH_MS } from "./dataPlaneServices";
import { dataPlaneLink } from "./planeLink";

export { FULL_REFRESH_MS };

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
   * When the notice to other instances could not be sent, notes it for the admin API's answer
   * (`Sluice-Propagation: delayed`, lib/policy/changes/changeReach.ts).
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
  const m = metrics();
  const { limiter, refusals, access, keyUsage, monitoring } = dataPlaneServices();
  // The data plane in another thread of this process (npm start), or undefined (one thread for both).
  const link = dataPlaneLink();
  // Not awaited: a login awaits it again (and retries it if this attempt failed).
  ensureFirstAdmin().catch((error: unknown) => {
    // Masked: a failed create may render its arguments (the password hash) in the message.
    console.error("sluice: could not create the first admin yet:", errorSummary(error));
  });
  return {
    limiter,
    access,
    keyUsage,
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
        await link?.tenantReset(tenantId);
        await publishReset(monitoring.redis, c.redisPrefix, tenantId);
      } catch (error) {
        throw new AppError(
          "limiter_unavailable",
          `The counters were reset, but other instances could not be told to forget their cached refusals (${(error as Error).message}); they may refuse until those expire. Retry the reset.`,
          { headers: { "Retry-After": "5" } },
        );
      }
    },
    async announce(tenantId, saved) {
      // This instance applies the change before answering (or the answer says it could not); the
      // others within ~1 ms of the notice, or, when it could not be sent, at their next full
      // refresh: the answer then says so (lib/policy/changes/changeReach.ts).
      const reach = await announceChange(
        {
          // Here, and in the data plane's thread when it has one of its own.
          reload: async (id) => void (await Promise.all([access.tenantChanged(id), link?.tenantChanged(id)])),
          // On the monitoring connection: a notice must not be lost to the limiter's short deadline.
          publish: (id) => publishChange(monitoring.redis, c.redisPrefix, id),
          refreshSeconds: FULL_REFRESH_MS / 1000,
        },
        tenantId,
        saved,
      );
      if (reach === "delayed") noteDelayedChange(FULL_REFRESH_MS / 1000);
    },
  };
}

const globalForServices = globalThis as unknown as { sluiceServices?: Services };

export function services(): Services {
  globalForServices.sluiceServices ??= create();
  return globalForServices.sluiceServices;
}
