/**
 * GET /api/health answered from a report at most MAX_AGE_MS old: a flood of health checks costs
 * one Postgres query and one Redis PING per second per instance, not one per call. Concurrent
 * callers while a check runs share it. An outage shows within about a second.
 */
import { checkHealth, type HealthReport } from "./checkHealth";

export const HEALTH_MAX_AGE_MS = 1_000;

export class HealthCache {
  private last: { report: HealthReport; at: number } | null = null;
  private running: Promise<HealthReport> | null = null;

  constructor(
    private readonly check: () => Promise<HealthReport> = () => checkHealth(),
    private readonly clock: () => number = Date.now,
    private readonly maxAgeMs = HEALTH_MAX_AGE_MS,
  ) {}

  async report(): Promise<HealthReport> {
    if (this.last && this.clock() - this.last.at < this.maxAgeMs) return this.last.report;
    this.running ??= this.check()
      .then((report) => {
        this.last = { report, at: this.clock() };
        return report;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}

const shared = globalThis as typeof globalThis & { __sluiceHealthCache?: HealthCache };

/** This process's cache (one per process: Next bundles each route apart). */
export function healthCache(): HealthCache {
  shared.__sluiceHealthCache ??= new HealthCache();
  return shared.__sluiceHealthCache;
}
