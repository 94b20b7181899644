/**
 * `npm start` (and `npm run dev` with `--dev`): one Node HTTP server, two planes.
 * - Data plane: every request under /api/v1 (lib/dataplane) is served here directly, without Next's
 *   request pipeline: `.next/dataplane.mjs` (bundled by `npm run build`), or lib/runtime/dataPlaneEntry.ts
 *   through tsx in development.
 * - Control plane: everything else (dashboard, admin API, health, metrics) goes to Next's handler.
 *   Route handlers cannot see the connection's address, and Next fills X-Forwarded-For from the
 *   socket only when the client sent none, so a client could pick its own IP. This server passes
 *   the socket address in `x-sluice-peer`, authenticated by a per-process secret
 *   (lib/dataplane/admission/clientIp.ts), after removing any such header the client sent.
 * Both planes share the process's services (globalThis: lib/runtime/services.ts).
 *
 * Env: PORT (default 3000), HOSTNAME (default 0.0.0.0). Stops cleanly on SIGINT/SIGTERM. Refuses to
 * start (exit 1, with the reason) when SLUICE_ADMIN_TOKEN is set but shorter than 32 characters.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import next from "next";
import { adminTokenProblem } from "../lib/config/adminToken.js";

// A guessable admin token must never serve: refuse to start, saying why.
const tokenProblem = adminTokenProblem(process.env.SLUICE_ADMIN_TOKEN);
if (tokenProblem) {
  console.error(`sluice: refusing to start: ${tokenProblem}`);
  process.exit(1);
}

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";
process.env.SLUICE_PEER_SECRET = randomBytes(24).toString("base64url");
const secret = process.env.SLUICE_PEER_SECRET;

async function loadDataPlane() {
  if (!dev) return import(new URL("../.next/dataplane.mjs", import.meta.url).href);
  // Straight from source, which imports `server-only`: `npm run dev` runs node with
  // `--conditions=react-server` (the bundle has it resolved at build time).
  const { tsImport } = await import("tsx/esm/api");
  return tsImport("../lib/runtime/dataPlaneEntry.ts", import.meta.url);
}

const dataPlane = await loadDataPlane();
const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
const serveApi = dataPlane.dataPlaneHandler();
await dataPlane.warmDataPlane();

const server = http.createServer((req, res) => {
  if (dataPlane.isDataPlaneTarget(req.url ?? "/")) {
    serveApi(req, res);
    return;
  }
  req.headers["x-sluice-peer"] = req.socket.remoteAddress ?? "unknown";
  req.headers["x-sluice-peer-auth"] = secret;
  handle(req, res);
});
// A request Node's parser refuses gets a problem+json 400, as every API error does.
server.on("clientError", dataPlane.answerClientError);
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(
    `sluice: listening on http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${port}${dev ? " (development)" : ""}`,
  );
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
