/**
 * The data plane as scripts/server.mjs loads it: bundled by esbuild into `.next/dataplane.mjs`
 * (scripts/build-dataplane.mjs, part of `npm run build`), or through tsx in `npm run dev`.
 *
 * It holds no services of its own: `dataPlaneServices()` keeps the thread's one set (Redis
 * connections, access cache with its change subscription, recorder) on globalThis. Under
 * `npm start` this is the main thread's, and Next runs in a worker thread (lib/config/plane.ts):
 * server.mjs forwards every other request there (`controlPlaneProxy`) and answers the control
 * plane's requests (`serveDataPlaneLink` with `dataPlaneLinkHandlers`), so a change made through
 * the admin API is applied to this data plane (access.tenantChanged) before the API answers. In one
 * thread (`npm run dev`), Next's routes share this very set. It lives in runtime/, not in
 * dataplane/, because it wires the data plane to those services: the data plane itself never
 * imports the wiring (eslint.layers.js).
 */
import { config } from "../config/config";
import { forwardToUpstream } from "../dataplane/gateway/forwardToUpstream";
import { metrics } from "../monitoring/prometheus/metrics";
import { dataPlaneServices } from "./dataPlaneServices";
import { startInstance } from "./prepareInstance";
import type { DataPlaneLink } from "./planeLink";
import { createDataPlane, tenantOfHost, type DataPlaneDeps, type NodeHandler } from "../dataplane/dataPlane";
import type { GatewayHooks } from "../dataplane/admittedAnswer";
import { startRlsServer, type RlsServer } from "../dataplane/envoy/rlsServer";

export { isDataPlaneTarget } from "../dataplane/requestPath";
export { answerClientError, sendContinue, toOriginForm } from "../dataplane/nodeIo";
export { configureServer } from "../dataplane/httpServer";
export { controlPlaneProxy } from "./controlPlaneProxy";
export { serveDataPlaneLink } from "./planeLink";

export function dataPlaneDeps(gateway?: GatewayHooks): DataPlaneDeps {
  const s = dataPlaneServices();
  const c = config();
  return {
    admit: {
      access: s.access,
      limiter: s.limiter,
      keyUsage: s.keyUsage,
      recorder: s.monitoring.recorder,
      metrics: metrics(),
      anonLimitPerMinute: c.anonLimitPerMinute,
      enforce: c.enforcement === "on",
    },
    check: { access: s.access, limiter: s.limiter, recorder: s.monitoring.recorder },
    trustProxy: c.trustProxy,
    ...(gateway ? { gateway } : {}),
  };
}

/** The gateway (lib/dataplane/gateway): the tenant's upstream from the access cache, and the forwarding. */
export function gatewayHooks(): GatewayHooks {
  const { access } = dataPlaneServices();
  return { upstreamFor: (tenantId) => access.upstreamFor(tenantId), forward: forwardToUpstream };
}

/**
 * Whether a Host header names a tenant's host (scripts/server.mjs then hands the request to the
 * data plane whatever its path): one Map lookup, none while no tenant has a host.
 */
export function tenantHostCheck(): (host: string | undefined) => boolean {
  const { access } = dataPlaneServices();
  return (host) => tenantOfHost(access, host) !== undefined;
}

/** The request handler for paths under /api/v1 and for tenant hosts. Creates the process's services if none exist yet. */
export function dataPlaneHandler(): NodeHandler {
  return createDataPlane(dataPlaneDeps(gatewayHooks()));
}

/**
 * Loads keys and rules before the first request (a failure is retried by the first requests:
 * they answer 503 meanwhile, as the access cache's contract says).
 */
export async function warmDataPlane(): Promise<void> {
  await dataPlaneServices()
    .access.ready()
    .catch(() => undefined);
}

/**
 * The instance's start-up checks and warm-up (lib/runtime/prepareInstance.ts) on this thread, for a
 * data plane that runs without Next beside it (npm start): ends the process with exit code 1 when
 * the start is refused.
 */
export const startDataPlane = startInstance;

/** What the data plane answers the control plane's worker (lib/runtime/planeLink.ts). */
export function dataPlaneLinkHandlers(): DataPlaneLink {
  const { access, refusals } = dataPlaneServices();
  return {
    tenantChanged: (tenantId) => access.tenantChanged(tenantId),
    tenantReset: async (tenantId) => refusals.dropTenant(tenantId),
    metrics: () => metrics().registry.getMetricsAsJSON(),
  };
}

/**
 * Envoy's rate limit service (lib/dataplane/envoy/rlsServer.ts) on SLUICE_GRPC_HOST:SLUICE_GRPC_PORT,
 * with this data plane's access cache and limiter (no Postgres on the request path); null when
 * SLUICE_GRPC_PORT is not set. scripts/server.mjs stops it with the HTTP server on SIGTERM/SIGINT.
 */
export async function startEnvoyService(): Promise<RlsServer | null> {
  const grpc = config().grpc;
  if (!grpc) return null;
  const { access, limiter, monitoring } = dataPlaneServices();
  const server = await startRlsServer({
    host: grpc.host,
    port: grpc.port,
    deps: {
      tenant: (id) => access.tenant(id),
      ready: () => access.ready(),
      limiter,
      onOutcome: (outcome) => metrics().envoyCalls.inc({ outcome }),
      onDecision: (tenantId, decision, attributes) => {
        for (const r of decision.results) {
          const result = r.allowed ? "allowed" : r.rule.mode === "shadow" ? "would_refuse" : "refused";
          metrics().ruleResults.inc({ rule: r.rule.name, result });
        }
        // The rules' series and "Limited right now" (descriptor values), as for POST /api/v1/check.
        monitoring.recorder.recordCheck(tenantId, decision, undefined, undefined, attributes);
      },
    },
  });
  console.log(`sluice: Envoy's rate limit service on ${grpc.host}:${server.port} (gRPC)`);
  return server;
}
