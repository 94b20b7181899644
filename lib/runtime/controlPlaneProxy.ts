/**
 * The main thread's way to the control plane: under `npm start`, Next runs in a worker thread of
 * the same process (lib/config/plane.ts says why) and listens on a Unix socket only this process
 * knows (scripts/control-plane.mjs). Every request that is not the data plane's is forwarded there
 * as it came (method, target, headers, body streamed) and answered as the control plane answers
 * (status, headers, body streamed), over a keep-alive pool.
 *
 * - The connection's address travels in `x-sluice-peer`, authenticated by the process's secret in
 *   `x-sluice-peer-auth` (lib/http/clientIp.ts): route handlers cannot see the socket,
 *   and a client cannot pick its own address (whatever it sent in those headers is replaced).
 * - Hop-by-hop headers are the connection's, not the message's: dropped both ways, by the gateway's
 *   rule (lib/dataplane/gateway/forwardHeaders.ts `endToEndHeaders`, with what `Connection` names);
 *   each side's Node server and client frame the body themselves.
 * - A client that goes away aborts the forwarded request; a control plane that cannot answer is a
 *   500 problem+json, or a cut connection when its answer had begun.
 * - An answer that comes before the client's body has all arrived (a 413 over 64 KiB, a 401 that
 *   never reads the body) carries `Connection: close`, as the data plane's own do, and the
 *   connection is closed after it: the rest of the body is no longer forwarded (it is read and
 *   discarded meanwhile), so it can never be taken for the client's next request nor leave that
 *   request waiting behind it (contract v3, HTTP semantics). The forwarded request, never finished,
 *   is dropped with its connection to the control plane once the answer is sent.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { problemReplyFor } from "../http/problem";
import { writeReply } from "../dataplane/nodeIo";
import { endToEndHeaders } from "../dataplane/gateway/forwardHeaders";

export function controlPlaneProxy(
  socketPath: string,
  peerSecret: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  return (req, res) => {
    const headers = endToEndHeaders(req.headers);
    headers["x-sluice-peer"] = req.socket.remoteAddress ?? "unknown";
    headers["x-sluice-peer-auth"] = peerSecret;
    const forwarded = http.request({ socketPath, agent, method: req.method, path: req.url, headers });
    let answered = false;
    forwarded.on("response", (answer) => {
      answered = true;
      const answerHeaders = endToEndHeaders(answer.headers);
      if (!req.complete) {
        req.unpipe(forwarded);
        req.resume();
        answerHeaders.connection = "close";
        res.once("finish", () => forwarded.destroy());
      }
      res.writeHead(answer.statusCode ?? 500, answer.statusMessage, answerHeaders);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    forwarded.on("error", () => {
      if (answered && res.writableFinished) return; // the unfinished forwarded request dropped above
      if (res.headersSent) res.destroy();
      else
        writeReply(
          req,
          res,
          problemReplyFor("internal", "The dashboard and admin API of this instance did not answer."),
          req.complete ? undefined : { connection: "close" },
        );
    });
    res.on("close", () => {
      if (!res.writableFinished) forwarded.destroy();
    });
    req.pipe(forwarded);
  };
}
