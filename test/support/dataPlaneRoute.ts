/**
 * The data plane (lib/dataplane) inside the test process, for integration tests that call routes
 * directly (routeTestEnv.ts): a node:http server on a free loopback port running the same handler
 * `npm start` runs, with this process's services. Import after the environment is set.
 *
 * These tests name the client with X-Forwarded-For (as direct route calls always did); the server
 * here trusts one proxy hop (SLUICE_TRUST_PROXY=1 semantics) so that address is the client's.
 *
 * - `dataPlaneUrl()`: the server's base URL (started on first use);
 * - the module's GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS: a route-handler adapter (web Request
 *   in, Response out) sending the request through that server, for `callRoute`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { rawRequest } from "./rawHttp";

let started: Promise<string> | undefined;

async function start(): Promise<string> {
  const { createDataPlane } = await import("@/lib/dataplane/dataPlane");
  const { answerClientError, dataPlaneDeps } = await import("@/lib/runtime/dataPlaneEntry");
  const server = http.createServer(createDataPlane({ ...dataPlaneDeps(), trustProxy: { hops: 1 } }));
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function dataPlaneUrl(): Promise<string> {
  started ??= start();
  return started;
}

async function viaDataPlane(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const answer = await rawRequest(await dataPlaneUrl(), {
    method: request.method,
    target: url.pathname + url.search,
    headers: Object.fromEntries(request.headers),
    body,
  });
  const empty = answer.status === 204 || answer.status === 304 || request.method === "HEAD";
  return new Response(empty ? null : answer.text, { status: answer.status, headers: answer.headers });
}

export {
  viaDataPlane as GET,
  viaDataPlane as HEAD,
  viaDataPlane as POST,
  viaDataPlane as PUT,
  viaDataPlane as PATCH,
  viaDataPlane as DELETE,
  viaDataPlane as OPTIONS,
};
