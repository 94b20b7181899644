/**
 * What the data plane needs, wired once per thread: the limiter (with refusal cache, local fail
 * mode, subject budget and metrics), the access cache with its change subscription and periodic refresh, the
 * decision recorder (with the monitoring connection) and the key-usage notes. Kept on globalThis
 * (Next bundles each route separately and all must share them).
 *
 * Under `npm start` the main thread, which serves /api/v1, creates only these
 * (lib/runtime/dataPlaneEntry.ts); the control plane's worker builds lib/runtime/services.ts on
 * a set of its own (its limiter limits logins, its cache feeds the dashboard). With one thread for
 * both planes (`npm run dev`, tests) services.ts builds on this very set.
 */
import { config } from "../config/config";
import { createLimiter, type Limiter } from "../limiter/decide";
import { withSubjectBudget } from "../limiter/budgetedLimiter";
import { SubjectBudget } from "../limiter/subjectBudget";
import { LocalLimiter } from "../limiter/localLimiter";
import { RefusalCache } from "../limiter/refusalCache";
import { getRedis } from "../redis/client";
import { metrics } from "../monitoring/prometheus/metrics";
import { AccessCache } from "../policy/compiled/accessCache";
import { rulesFingerprint } from "../policy/compiled/rulesFingerprint";
import { prismaAccessLoader } from "../policy/compiled/accessLoader";
import { subscribeChanges } from "../policy/changes/changeBus";
import { KeyUsage } from "../policy/keys/keyUsage";
import { createMonitoring, type Monitoring } from "../monitoring/monitoringServices";

/** Full reload of keys and rules, the safety net behind change notices. */
export const FULL_REFRESH_MS = 15_000;

export interface DataPlaneServices {
  limiter: Limiter;
  /** The limiter's cached refusals: dropped per tenant after a counter reset (services.ts announceReset). */
  refusals: RefusalCache;
  access: AccessCache;
  keyUsage: KeyUsage;
  /** The recorder (every decision, written to Redis every second), the queries and their connection. */
  monitoring: Monitoring;
}

function create(): DataPlaneServices {
  const c = config();
  const redis = getRedis();
  const m = metrics();
  const refusals = new RefusalCache();
  const budget = new SubjectBudget({
    budget: c.subjectBudget,
    onFold: (rule) => m.subjectBudgetFolds.inc({ rule: rule.name, scope: rule.scope }),
  });
  m.subjectBudgetSource.read = () => budget.usage();
  const redisLimiter = createLimiter({
    redis,
    prefix: c.redisPrefix,
    timeoutMs: c.redisTimeoutMs,
    timeSource: c.timeSource,
    refusals,
    local: new LocalLimiter(),
    onUnavailable: (error, rules) => {
      m.redisErrors.inc({ kind: error.kind });
      for (const rule of rules) m.failModeActivations.inc({ mode: rule.failMode });
    },
  });
  // Values of header, query and identifier rules past the budget share overflow counters.
  const limiter = withSubjectBudget(redisLimiter, budget);
  const access = new AccessCache(prismaAccessLoader, {
    onReload: (kind, outcome) => m.cacheReloads.inc({ kind, outcome }),
    // Cached refusals go only when the tenant's rules really changed, not on every full refresh.
    onTenantReplaced: (tenantId, tenant) => refusals.rulesLoaded(tenantId, rulesFingerprint(tenant)),
  });
  access.startPeriodicRefresh(FULL_REFRESH_MS);
  subscribeChanges(redis, c.redisPrefix, {
    // A failed reload is logged by the cache; the next full refresh retries it.
    onChange: (tenantId) => void access.tenantChanged(tenantId).catch(() => undefined),
    onSubscribed: () => void access.refreshAll().catch(() => undefined),
    onReset: (tenantId) => refusals.dropTenant(tenantId),
  });
  return { limiter, refusals, access, keyUsage: new KeyUsage(), monitoring: createMonitoring(access) };
}

const globalForDataPlane = globalThis as unknown as { sluiceDataPlaneServices?: DataPlaneServices };

export function dataPlaneServices(): DataPlaneServices {
  globalForDataPlane.sluiceDataPlaneServices ??= create();
  return globalForDataPlane.sluiceDataPlaneServices;
}
