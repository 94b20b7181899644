/**
 * `npm start` (and `npm run dev` with `--dev`): one Node process, one port, two planes.
 * - Data plane: every request under /api/v1, and every request to a tenant's host whatever its path
 *   (lib/dataplane) is served here, on the main thread,
 *   without Next: `.next/dataplane.mjs` (bundled by `npm run build`), or lib/runtime/dataPlaneEntry.ts
 *   through tsx in development.
 * - Control plane: everything else (dashboard, admin API, health, metrics) is Next's. In production
 *   Next runs in a worker thread of this process (scripts/control-plane.mjs), listening on a Unix
 *   socket only this process knows, and this thread forwards those requests to it
 *   (lib/runtime/controlPlaneProxy.ts): Next's AsyncLocalStorage hooks, its patched timers and its
 *   heap stay out of the data plane's thread (lib/config/plane.ts). The two answer each other over
 *   the worker's message port (lib/runtime/planeLink.ts): a rule change through the admin API is in
 *   force on this data plane before the API answers; /api/metrics counts both. In development
 *   (`--dev`) Next runs on this thread beside the data plane, sharing its services.
 * Route handlers cannot see the connection's address, and Next fills X-Forwarded-For from the
 * socket only when the client sent none, so a client could pick its own IP: control-plane requests
 * carry the socket address in `x-sluice-peer`, authenticated by a per-process secret
 * (lib/http/clientIp.ts), replacing any such header the client sent.
 *
 * The control plane's socket is a file in a directory of its own, mode 0700, under the system's
 * temporary directory (removed at exit): only this user can connect to it. (It was an abstract
 * socket, which any local user could find in /proc/net/unix and connect to.) A request that reaches
 * Next without the secret is still from an "unknown" client whose forwarded headers count for nothing.
 *
 * With SLUICE_GRPC_PORT set it also serves Envoy's rate limit service over gRPC (SLUICE_GRPC_HOST,
 * default 127.0.0.1; lib/dataplane/envoy, docs/envoy.md), stopped with the HTTP server.
 * Env: PORT (default 3000), SLUICE_HOST (else HOSTNAME, else 0.0.0.0): the address to listen on
 * (lib/config/listenAddress.js). Behind a proxy on the same host, listen on 127.0.0.1;
 * SLUICE_TRUST_PROXY as a hop count on any other address lets whoever reaches the port pick its
 * client IP, which the start-up log warns of (list the proxies' addresses instead). Stops cleanly on SIGINT/SIGTERM. Refuses to
 * start (exit 1, with the reason) when SLUICE_ADMIN_TOKEN is set but shorter than 32 characters, or
 * when the start-up checks refuse it (lib/runtime/prepareInstance.ts). Exits 1 if the control
 * plane's thread stops: an instance without its admin API and health must not stay in a pool.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { adminTokenProblem } from "../lib/config/adminToken.js";
import { listenHost, openTrustWarning } from "../lib/config/listenAddress.js";

// A guessable admin token must never serve: refuse to start, saying why.
const tokenProblem = adminTokenProblem(process.env.SLUICE_ADMIN_TOKEN);
if (tokenProblem) {
  console.error(`sluice: refusing to start: ${tokenProblem}`);
  process.exit(1);
}

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT || 3000);
const hostname = listenHost(process.env);
process.env.SLUICE_PEER_SECRET = randomBytes(24).toString("base64url");
const secret = process.env.SLUICE_PEER_SECRET;

async function loadDataPlane() {
  if (!dev) return import(new URL("../.next/dataplane.mjs", import.meta.url).href);
  // Straight from source, which imports `server-only`: `npm run dev` runs node with
  // `--conditions=react-server` (the bundle has it resolved at build time).
  const { tsImport } = await import("tsx/esm/api");
  return tsImport("../lib/runtime/dataPlaneEntry.ts", import.meta.url);
}

/** Next on this thread (development): its handler, with the peer headers added. */
async function controlPlaneHere() {
  const { default: next } = await import("next");
  const app = next({ dev, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  return {
    serve(req, res) {
      req.headers["x-sluice-peer"] = req.socket.remoteAddress ?? "unknown";
      req.headers["x-sluice-peer-auth"] = secret;
      handle(req, res);
    },
    stop: async () => undefined,
  };
}

/** Next in a worker thread (production), answered over the link, reached through the proxy. */
async function controlPlaneWorker(dataPlane) {
  const { Worker } = await import("node:worker_threads");
  // mkdtemp makes the directory with mode 0700: other users cannot reach the socket inside.
  const socketDir = mkdtempSync(path.join(tmpdir(), "sluice-control-"));
  process.once("exit", () => rmSync(socketDir, { recursive: true, force: true }));
  const socketPath = path.join(socketDir, "control.sock");
  const worker = new Worker(new URL("./control-plane.mjs", import.meta.url), {
    workerData: { sluicePlane: "control", socketPath, hostname, port },
  });
  dataPlane.serveDataPlaneLink(worker, dataPlane.dataPlaneLinkHandlers());
  let stopping = false;
  await new Promise((resolve, reject) => {
    worker.on("message", (message) => {
      if (message?.sluicePlane === "ready") resolve();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the control plane's thread exited (${code}) while starting`)));
  });
  worker.on("error", (error) => console.error("sluice: the control plane's thread failed:", error));
  worker.on("exit", (code) => {
    if (stopping) return;
    console.error(`sluice: the control plane's thread exited (${code}); stopping`);
    process.exit(1);
  });
  return {
    serve: dataPlane.controlPlaneProxy(socketPath, secret),
    async stop() {
      stopping = true;
      await worker.terminate();
    },
  };
}

const dataPlane = await loadDataPlane();
// In production the start-up checks run here, before Next: a refused start ends the process.
if (!dev) await dataPlane.startDataPlane();
let control;
try {
  control = dev ? await controlPlaneHere() : await controlPlaneWorker(dataPlane);
} catch (error) {
  console.error("sluice: the control plane could not start:", error);
  process.exit(1);
}
const serveApi = dataPlane.dataPlaneHandler();
const isTenantHost = dataPlane.tenantHostCheck();
await dataPlane.warmDataPlane();
// Envoy's rate limit service over gRPC when SLUICE_GRPC_PORT is set (docs/envoy.md).
let envoyService = null;
try {
  envoyService = await dataPlane.startEnvoyService();
} catch (error) {
  console.error(`sluice: refusing to start: Envoy's rate limit service: ${error?.message ?? error}`);
  process.exit(1);
}

const server = http.createServer((req, res) => {
  dataPlane.toOriginForm(req);
  // A tenant's host is the tenant's on every path: Sluice's own pages are never served there.
  if (isTenantHost(req.headers.host) || dataPlane.isDataPlaneTarget(req.url ?? "/")) serveApi(req, res);
  else {
    // `Expect: 100-continue` is held for the data plane to decide first; the control plane's comes now.
    dataPlane.sendContinue(req, res);
    control.serve(req, res);
  }
});
// Problem+json for requests Node's parser refuses, keep-alive, half-closed clients answered,
// `100 Continue` only once admitted (lib/dataplane/httpServer.ts).
dataPlane.configureServer(server);
server.listen(port, hostname, () => {
  const warning = openTrustWarning(process.env.SLUICE_TRUST_PROXY, hostname);
  if (warning) console.warn(`sluice: ${warning}`);
  console.log(
    `sluice: listening on http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${port}${dev ? " (development)" : ""}`,
  );
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    // The gRPC service drains with the HTTP server: calls in flight finish, new ones are refused.
    const grpcStopped = envoyService ? envoyService.stop(4_000) : Promise.resolve();
    server.close(() => void Promise.all([grpcStopped, control.stop()]).finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
