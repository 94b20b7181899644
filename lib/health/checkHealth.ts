/**
 * Health of the two backing services, as served by `GET /api/health`.
 *
 * Both probes run in parallel, each under its own deadline; a probe that rejects or is slower
 * than its deadline makes that service "down". Never throws: an outage is a value, not an error.
 */
import { getDb } from "../db/client";
import { pingRedis } from "../redis/client";

export type ServiceStatus = "ok" | "down";

export interface HealthReport {
  redis: ServiceStatus;
  db: ServiceStatus;
}

export interface HealthProbes {
  pingDb: () => Promise<unknown>;
  pingRedis: () => Promise<unknown>;
}

export const DB_PROBE_TIMEOUT_MS = 1_000;

const defaultProbes: HealthProbes = {
  pingDb: () => getDb().$queryRaw`SELECT 1`,
  // pingRedis applies its own deadline (at least 500 ms).
  pingRedis: () => pingRedis(),
};

async function statusOf(probe: () => Promise<unknown>, timeoutMs: number): Promise<ServiceStatus> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ServiceStatus>((resolve) => {
    timer = setTimeout(() => resolve("down"), timeoutMs);
  });
  const outcome = Promise.resolve()
    .then(probe)
    .then(
      (): ServiceStatus => "ok",
      (): ServiceStatus => "down",
    );
  try {
    return await Promise.race([outcome, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(
  probes: HealthProbes = defaultProbes,
  timeoutMs: number = DB_PROBE_TIMEOUT_MS,
): Promise<HealthReport> {
  const [redis, db] = await Promise.all([statusOf(probes.pingRedis, timeoutMs), statusOf(probes.pingDb, timeoutMs)]);
  return { redis, db };
}

export function isHealthy(report: HealthReport): boolean {
  return report.redis === "ok" && report.db === "ok";
}
