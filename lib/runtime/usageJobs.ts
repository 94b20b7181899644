/**
 * The usage jobs of an instance, started once per process (lib/runtime/prepareInstance.ts, on the
 * data plane's thread): the usage roll-up into Postgres every USAGE_ROLLUP_INTERVAL_MS
 * (lib/monitoring/usage/usageRollup.ts), and the usage guard every second, which seeds quota
 * counters from Postgres after Redis lost them (lib/monitoring/usage/usageSeed.ts), both on the
 * monitoring Redis connection; and the billing hook every minute (lib/control/alerts/billingHook.ts).
 */
import { config } from "../config/config";
import { getDb } from "../db/client";
import { UsageRollup } from "../monitoring/usage/usageRollup";
import { createBillingHook, type BillingHook } from "../control/alerts/billingHook";
import { UsageGuard, type SeedTenant } from "../monitoring/usage/usageSeed";
import { dataPlaneServices } from "./dataPlaneServices";

const globalForJobs = globalThis as unknown as {
  sluiceUsageJobs?: { rollup: UsageRollup; guard: UsageGuard; billing: BillingHook };
};

export function startUsageJobs(): void {
  if (globalForJobs.sluiceUsageJobs) return;
  const { monitoring, access } = dataPlaneServices();
  const prefix = config().redisPrefix;
  const rollup = new UsageRollup({ redis: monitoring.redis, prefix, db: getDb });
  rollup.start();
  const tenants = (): SeedTenant[] =>
    access.tenantList().map((tenant) => ({
      tenantId: tenant.id,
      rules: (keyId) =>
        access.rulesFor(tenant.id, { key: keyId === undefined ? undefined : access.key(keyId) }).map((r) => r.limiter),
    }));
  // Seeds through the monitoring connection's limiter (its longer deadline): never the live one's budget.
  const guard = new UsageGuard({
    redis: monitoring.redis,
    prefix,
    limiter: monitoring.peekLimiter,
    db: getDb,
    tenants,
  });
  guard.start();
  const billing = createBillingHook(getDb);
  billing.start();
  globalForJobs.sluiceUsageJobs = { rollup, guard, billing };
}
