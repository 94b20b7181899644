/**
 * The control plane's thread under `npm start` (started by scripts/server.mjs as a worker thread):
 * Next (dashboard, admin API, health, metrics) on a Unix socket that only the main thread knows
 * (`workerData.socketPath`); the main thread forwards every request that is not the data plane's.
 * Posts `{ sluicePlane: "ready" }` once Next is prepared (its instrumentation.ts has run) and the
 * socket listens; a failure to start is thrown, which ends the thread and the process with it.
 * `workerData.sluicePlane === "control"` tells the code it loads which plane it serves
 * (lib/config/plane.ts).
 */
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import next from "next";

const { socketPath, hostname, port } = workerData;
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => handle(req, res));
server.keepAliveTimeout = 65_000;
server.listen(socketPath, () => parentPort.postMessage({ sluicePlane: "ready" }));
