/**
 * What an instance does before it reports ready: scripts/server.mjs runs it on the data plane's
 * thread before it starts the control plane, and Next's instrumentation.ts in each thread that runs
 * Next, awaited before the server answers its first request (the server listens only after both):
 * 1. Redis's maxmemory-policy (lib/redis/evictionPolicy.ts): anything but `noeviction` is logged
 *    loudly; with SLUICE_REQUIRE_NOEVICTION=1 an evicting policy refuses the start
 *    (`StartRefusedError`). A policy that cannot be read is logged and never refuses.
 * 2. Warm-up (lib/limiter/warmLimiter.ts): the limiter's connection is opened, the decide script
 *    loaded on every master, and the decision path run a few times (peeks, which write nothing),
 *    so the first real requests do not spend their Redis budget connecting, loading the script
 *    or compiling code (issue 15, point 14). The access cache is loaded too.
 * 3. Decide library housekeeping (lib/limiter/decideLibraries.ts): this version's library is
 *    heartbeated (before the warm-up loads it: commands on one connection keep their order) and
 *    libraries of versions no running instance uses are deleted, then every minute.
 * 4. The usage jobs (lib/runtime/usageJobs.ts): the roll-up of metering into Postgres.
 * A Redis or Postgres that is down does not stop the start: the instance serves by fail modes and
 * the access cache's contract, as it would after start.
 */
import { config } from "../config/config";
import { housekeepingFor, startLibraryHousekeeping } from "../limiter/decideLibraries";
import { warmLimiter } from "../limiter/warmLimiter";
import { getRedis } from "../redis/client";
import { evictionVerdict, evictionWarning, readEvictionPolicyWhy } from "../redis/evictionPolicy";
import { dataPlaneServices } from "./dataPlaneServices";
import { isControlPlaneWorker } from "../config/plane";
import { startUsageJobs } from "./usageJobs";

export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartRefusedError";
  }
}

/** Reads the policy, logs it when unsafe, throws StartRefusedError when required and evicting. */
export async function checkEvictionAtStart(
  redis = getRedis(),
  requireNoEviction = config().requireNoEviction,
  log: (line: string) => void = console.error,
): Promise<string> {
  const { policy, because } = await readEvictionPolicyWhy(redis, 2_000);
  const warning = evictionWarning(policy, because);
  if (!warning) return policy;
  if (requireNoEviction && evictionVerdict(policy) === "evicts") {
    throw new StartRefusedError(`${warning}. Refusing to start (SLUICE_REQUIRE_NOEVICTION=1).`);
  }
  const bar = "!".repeat(100);
  log(`${bar}\n[sluice] WARNING: ${warning}.\n${bar}`);
  return policy;
}

export async function prepareInstance(): Promise<void> {
  const c = config();
  const s = dataPlaneServices();
  // Under npm start the main thread checked the policy before it started this worker (one check,
  // one warning, one refusal per process); the worker only warms its own connection and cache.
  if (!isControlPlaneWorker()) {
    await checkEvictionAtStart(getRedis(), c.requireNoEviction);
    // Not awaited: a Redis that is down must not hold the start (each beat never throws).
    startLibraryHousekeeping(getRedis(), housekeepingFor(c.redisPrefix));
    // Metering: the usage roll-up (and billing hook) run once per process, in the background.
    startUsageJobs();
  }
  await Promise.all([warmLimiter(getRedis(), s.limiter), s.access.ready().catch(() => undefined)]);
}

/**
 * prepareInstance for the server's start (scripts/server.mjs through lib/runtime/dataPlaneEntry.ts
 * `startDataPlane`, and Next's instrumentation.ts in the control plane): a refused start
 * (StartRefusedError) ends the process with exit code 1; any other failure is logged and the
 * instance serves anyway.
 */
export async function startInstance(): Promise<void> {
  try {
    await prepareInstance();
  } catch (error) {
    if (error instanceof StartRefusedError) {
      console.error(`[sluice] ${error.message}`);
      process.exit(1);
    }
    console.error("[sluice] start-up checks failed (serving anyway):", (error as Error).message);
  }
}
