/**
 * The data plane as scripts/server.mjs loads it: bundled by esbuild into `.next/dataplane.mjs`
 * (scripts/build-dataplane.mjs, part of `npm run build`), or through tsx in `npm run dev`.
 *
 * It holds no services of its own: `services()` keeps the process's one set (Redis connections,
 * access cache with its change subscription, recorder) on globalThis, so Next's admin routes and
 * this bundle share them, and a change made through the admin API is applied to this instance's
 * data plane (access.tenantChanged) before the API answers. It lives in runtime/, not in
 * dataplane/, because it wires the data plane to those services: the data plane itself never
 * imports the wiring (eslint.layers.js).
 */
import { config } from "../config/config";
import { forwardToUpstream } from "../dataplane/gateway/forwardToUpstream";
import { metrics } from "../monitoring/prometheus/metrics";
import { services } from "./services";
import { createDataPlane, type DataPlaneDeps, type GatewayHooks, type NodeHandler } from "../dataplane/dataPlane";

export { isDataPlaneTarget } from "../dataplane/requestPath";
export { answerClientError } from "../dataplane/nodeIo";

export function dataPlaneDeps(gateway?: GatewayHooks): DataPlaneDeps {
  const s = services();
  const c = config();
  return {
    admit: {
      access: s.access,
      limiter: s.limiter,
      keyUsage: s.keyUsage,
      recorder: s.recorder,
      metrics: metrics(),
      anonLimitPerMinute: c.anonLimitPerMinute,
      enforce: c.enforcement === "on",
    },
    check: { access: s.access, limiter: s.limiter, recorder: s.recorder },
    trustProxyHops: c.trustProxyHops,
    ...(gateway ? { gateway } : {}),
  };
}

/** The gateway (lib/dataplane/gateway): the tenant's upstream from the access cache, and the forwarding. */
export function gatewayHooks(): GatewayHooks {
  const { access } = services();
  return { upstreamFor: (tenantId) => access.upstreamFor(tenantId), forward: forwardToUpstream };
}

/** The request handler for paths under /api/v1. Creates the process's services if none exist yet. */
export function dataPlaneHandler(): NodeHandler {
  return createDataPlane(dataPlaneDeps(gatewayHooks()));
}

/**
 * Loads keys and rules before the first request (a failure is retried by the first requests:
 * they answer 503 meanwhile, as the access cache's contract says).
 */
export async function warmDataPlane(): Promise<void> {
  await services()
    .access.ready()
    .catch(() => undefined);
}
