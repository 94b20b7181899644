/**
 * `npm start`: the production server. Next's request handler behind a plain Node HTTP server, for
 * one reason: route handlers cannot see the connection's address, and Next fills X-Forwarded-For
 * from the socket only when the client sent none, so a client could pick its own IP. This server
 * passes the socket address in `x-sluice-peer`, authenticated by a per-process secret
 * (lib/enforce/clientIp.ts), after removing any such header the client sent.
 *
 * Env: PORT (default 3000), HOSTNAME (default 0.0.0.0). Stops cleanly on SIGINT/SIGTERM.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import next from "next";

const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";
process.env.SLUICE_PEER_SECRET = randomBytes(24).toString("base64url");
const secret = process.env.SLUICE_PEER_SECRET;

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  req.headers["x-sluice-peer"] = req.socket.remoteAddress ?? "unknown";
  req.headers["x-sluice-peer-auth"] = secret;
  handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`sluice: listening on http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
