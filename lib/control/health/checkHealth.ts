/**
 * Health of the two backing services, as served by `GET /api/health`.
 *
 * Both probes run in parallel, each under its own deadline; a probe that rejects or is slower
 * than its deadline makes that service "down". Never throws: an outage is a value, not an error.
 * Also reports Redis's `maxmemory-policy` (lib/redis/evictionPolicy.ts), read again on each call
 * (it can be changed at run time), with a warning when it is not `noeviction`. An evicting policy
 * does not make the instance unhealthy (it still serves): it is a configuration to fix.
 */
import { z } from "zod";
import { getDb } from "../../db/client";
import { getRedis, pingRedis } from "../../redis/client";
import { evictionWarning, readEvictionPolicy, UNKNOWN_POLICY, type EvictionPolicy } from "../../redis/evictionPolicy";

const serviceStatusSchema = z.enum(["ok", "down"]);
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

/** GET /api/health (200 and 503): the answer's one description. */
export const healthSchema = z.object({
  redis: serviceStatusSchema,
  db: serviceStatusSchema,
  redisMaxmemoryPolicy: z.string().meta({
    description:
      'Redis maxmemory-policy, "unknown" when it cannot be read; only noeviction is safe for counters (lib/redis/evictionPolicy.ts)',
  }),
  warnings: z.array(z.string()).optional().meta({
    description: "Present when something needs fixing though the instance serves, e.g. an evicting maxmemory-policy",
  }),
});
export type HealthReport = z.infer<typeof healthSchema>;

export interface HealthProbes {
  pingDb: () => Promise<unknown>;
  pingRedis: () => Promise<unknown>;
  /** Never rejects: "unknown" when the policy cannot be read. */
  evictionPolicy?: () => Promise<EvictionPolicy>;
}

export const DB_PROBE_TIMEOUT_MS = 1_000;

const defaultProbes: HealthProbes = {
  pingDb: () => getDb().$queryRaw`SELECT 1`,
  // pingRedis applies its own deadline (at least 500 ms).
  pingRedis: () => pingRedis(),
  evictionPolicy: () => readEvictionPolicy(getRedis()),
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

async function policyOf(probe: HealthProbes["evictionPolicy"], timeoutMs: number): Promise<EvictionPolicy> {
  if (!probe) return UNKNOWN_POLICY;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<EvictionPolicy>((resolve) => {
    timer = setTimeout(() => resolve(UNKNOWN_POLICY), timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(probe)
        .catch(() => UNKNOWN_POLICY),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(
  probes: HealthProbes = defaultProbes,
  timeoutMs: number = DB_PROBE_TIMEOUT_MS,
): Promise<HealthReport> {
  const [redis, db, redisMaxmemoryPolicy] = await Promise.all([
    statusOf(probes.pingRedis, timeoutMs),
    statusOf(probes.pingDb, timeoutMs),
    policyOf(probes.evictionPolicy, timeoutMs),
  ]);
  const warning = redis === "ok" ? evictionWarning(redisMaxmemoryPolicy) : null;
  return { redis, db, redisMaxmemoryPolicy, ...(warning ? { warnings: [warning] } : {}) };
}

export function isHealthy(report: HealthReport): boolean {
  return report.redis === "ok" && report.db === "ok";
}
