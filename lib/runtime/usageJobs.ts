/**
 * The usage jobs of an instance, started once per process (lib/runtime/prepareInstance.ts, on the
 * data plane's thread): the usage roll-up into Postgres every USAGE_ROLLUP_INTERVAL_MS
 * (lib/monitoring/usage/usageRollup.ts), on the monitoring Redis connection.
 */
import { config } from "../config/config";
import { getDb } from "../db/client";
import { UsageRollup } from "../monitoring/usage/usageRollup";
import { dataPlaneServices } from "./dataPlaneServices";

const globalForJobs = globalThis as unknown as { sluiceUsageJobs?: { rollup: UsageRollup } };

export function startUsageJobs(): void {
  if (globalForJobs.sluiceUsageJobs) return;
  const { monitoring } = dataPlaneServices();
  const rollup = new UsageRollup({ redis: monitoring.redis, prefix: config().redisPrefix, db: getDb });
  rollup.start();
  globalForJobs.sluiceUsageJobs = { rollup };
}
