/**
 * Which plane this thread serves. `npm start` runs the data plane (everything under /api/v1) on the
 * process's main thread and Next (the control plane: dashboard, admin API, health, metrics) in a
 * worker thread of the same process (scripts/server.mjs): Next turns on AsyncLocalStorage's
 * promise hooks and patches `setImmediate` and `process.nextTick` for every line of code in its
 * thread, and its heap slows every young-generation collection; in a thread of its own, none of
 * that reaches the data plane. `npm run dev`, tests and scripts run one thread with both planes.
 *
 * - `isControlPlaneWorker()`: true only in that worker (scripts/control-plane.mjs sets
 *   `workerData.sluicePlane`, which nothing outside the process can set).
 * - `connectionName(part)`: the name a Redis connection gives itself (CLIENT SETNAME), `sluice-<part>`
 *   on the data plane's thread and `sluice-control-<part>` on the control plane's, so CLIENT LIST
 *   tells the planes' connections apart.
 * - `logOutage(line)`: a dependency lost or back (Redis, the rule store) is the instance's news,
 *   logged once: by the data plane's connections, which serve the requests. The control plane's
 *   own connections fail and recover without a line (what they fail shows as its 503 answers and
 *   in /api/metrics), so an outage is not logged twice by one instance.
 */
import { isMainThread, workerData } from "node:worker_threads";

export function isControlPlaneWorker(): boolean {
  return !isMainThread && (workerData as { sluicePlane?: unknown } | null)?.sluicePlane === "control";
}

export function connectionName(part: string): string {
  return isControlPlaneWorker() ? `sluice-control-${part}` : `sluice-${part}`;
}

export function logOutage(line: string): void {
  if (!isControlPlaneWorker()) console.warn(line);
}
