/**
 * The settings of the node:http server the data plane is served on (scripts/server.mjs, and the
 * tests' servers), in one place so that what is tested is what runs.
 *
 * Contract: `configureServer(server)`
 * - `clientError`: a request Node's parser refuses gets a problem+json 400 (431), then the
 *   connection closes (nodeIo.ts answerClientError);
 * - `keepAliveTimeout` 65 s (longer than the usual load balancer's 60 s idle timeout, so the
 *   balancer, not Sluice, closes an idle connection and never sends on one Sluice just closed);
 * - half-closed clients get their answer (`httpAllowHalfOpen`): a client that ends its side after
 *   the request (`nc -N`, `curl` over some proxies, shutdown(SHUT_WR)) had its request aborted and
 *   got no answer at all; the connection closes once the answer is sent;
 * - `Expect: 100-continue` (`checkContinue`): the `100 Continue` is no longer sent before the
 *   request is decided. The request is marked (nodeIo.ts `holdContinue`) and served as any other;
 *   the data plane sends `100 Continue` once the request is admitted (`sendContinue`), so a refused
 *   request gets its 401/429 first, and its body is never asked for (the answer then closes the
 *   connection: the client may still send the body). Other planes call `sendContinue` before serving.
 */
import type { Server } from "node:http";
import { answerClientError, holdContinue } from "./nodeIo";

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function configureServer(server: Server): void {
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node's own switch (node:_http_server, present since 0.x; absent from @types/node): answer,
  // then close, instead of aborting the request when the client ends its side.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("checkContinue", (req, res) => {
    holdContinue(req);
    server.emit("request", req, res);
  });
}
