/**
 * The gateway: forwards one admitted request under /api/v1 to its tenant's upstream and streams
 * the answer back (CONTRACT.md, "Putting Sluice in front of an API"). The data plane
 * (lib/dataplane) calls it after admission, with the decision's rate-limit headers; nothing here
 * decides or charges anything.
 *
 * - `GET /api/v1/orders/42?x=1` goes to `GET <upstream url>/orders/42?x=1` (`path` is what
 *   follows /api/v1, query included). Method and body pass as they arrive; headers per
 *   lib/dataplane/gateway/forwardHeaders.ts.
 * - Bodies are streamed both ways through undici (one keep-alive pool per upstream origin, kept by
 *   one Agent for the process): no buffering and no size limit of Sluice's own; backpressure holds
 *   both ways (undici reads the client's body only as fast as the upstream takes it; the answer is
 *   piped into the client's response). A client that goes away aborts the upstream request.
 * - The upstream's status, headers and body come back as they are, with the rate-limit headers set.
 * - Upstream unreachable (refused, reset, DNS, TLS, connect timeout): 502; status and headers not
 *   there within `timeoutMs`: 504; both problem+json that name no host or error. An upstream
 *   whose body fails (or stays silent for `timeoutMs`) after its headers were sent ends the
 *   client's connection: a problem can no longer be sent, and a truncated body must not pass for
 *   a whole one.
 * - Resolves once the exchange is over (answered, failed or aborted); never rejects.
 * - `onStatus` is told the status the client is sent, once it is sent: the upstream's, or 502/504
 *   of Sluice's own; never when the client went away first (count by response, rule field chargeOn).
 * - Metrics: sluice_gateway_responses_total and sluice_gateway_upstream_duration_seconds by
 *   outcome (status class, unreachable, timeout, aborted).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import type { TLSSocket } from "node:tls";
import { Agent, type Dispatcher } from "undici";
import { metrics } from "../../monitoring/prometheus/metrics";
import { clientResponseHeaders, upstreamRequestHeaders } from "./forwardHeaders";
import { writeGatewayProblem } from "./gatewayProblem";

export interface ForwardRequest {
  req: IncomingMessage;
  res: ServerResponse;
  upstream: { url: string; timeoutMs: number };
  /** The path and query after /api/v1, e.g. "/orders/42?x=1". */
  path: string;
  clientIp: string;
  tenantId: string;
  keyId: string;
  rateLimitHeaders: Record<string, string>;
  /** Told the status sent to the client (see above). Must not throw. */
  onStatus?: (status: number) => void;
}

type Outcome = "1xx" | "2xx" | "3xx" | "4xx" | "5xx" | "unreachable" | "timeout" | "aborted";

/** Idle keep-alive connections live this long unless the upstream announces a shorter time. */
const KEEP_ALIVE_MS = 10_000;
/** A TCP/TLS connect that takes longer than this is an unreachable upstream (502). */
const CONNECT_TIMEOUT_MS = 10_000;

const globalForGateway = globalThis as unknown as { sluiceGatewayAgent?: Agent };

/** The process's HTTP client: undici's Agent keeps one connection Pool per upstream origin. */
export function gatewayAgent(): Agent {
  globalForGateway.sluiceGatewayAgent ??= new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: 60_000,
    connect: { timeout: CONNECT_TIMEOUT_MS },
  });
  return globalForGateway.sluiceGatewayAgent;
}

/** Closes the pooled connections (tests, shutdown). */
export async function closeGatewayAgent(): Promise<void> {
  const agent = globalForGateway.sluiceGatewayAgent;
  globalForGateway.sluiceGatewayAgent = undefined;
  await agent?.close();
}

/** Whether the client sends a body: a framing header says so (a GET with neither has none). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** `<upstream path prefix><path after /api/v1>`, always starting with `/`. */
export function upstreamPath(upstreamUrl: URL, path: string): string {
  return pathPrefixOf(upstreamUrl) + restOf(path);
}

const pathPrefixOf = (upstreamUrl: URL): string => upstreamUrl.pathname.replace(/\/+$/, "");
const restOf = (path: string): string => (path === "" ? "/" : path.startsWith("/") ? path : `/${path}`);

/** Upstream URLs parsed once (a tenant's URL changes rarely): origin and path prefix. Bounded: cleared when full. */
const parsedUpstreams = new Map<string, { origin: string; prefix: string }>();
const MAX_PARSED_UPSTREAMS = 1_000;

function parsedUpstream(url: string): { origin: string; prefix: string } {
  let parsed = parsedUpstreams.get(url);
  if (!parsed) {
    const target = new URL(url);
    parsed = { origin: target.origin, prefix: pathPrefixOf(target) };
    if (parsedUpstreams.size >= MAX_PARSED_UPSTREAMS) parsedUpstreams.clear();
    parsedUpstreams.set(url, parsed);
  }
  return parsed;
}

const statusClass = (status: number): Outcome => `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx` as Outcome;

export async function forwardToUpstream(f: ForwardRequest): Promise<void> {
  const m = metrics();
  const started = performance.now();
  const observe = (outcome: Outcome) => {
    m.gatewayResponses.inc({ outcome });
    m.gatewaySeconds.observe({ outcome }, (performance.now() - started) / 1000);
  };
  // undici takes an EventEmitter as its abort signal ("abort" event): an AbortController per
  // request costs an AbortSignal, and a DOMException with a captured stack on abort.
  const abort = new EventEmitter();
  let timedOut = false;
  let clientGone = false;
  const onClose = () => {
    if (f.res.writableFinished) return;
    clientGone = true;
    abort.emit("abort");
  };
  f.res.once("close", onClose);
  const timer = setTimeout(() => {
    timedOut = true;
    abort.emit("abort");
  }, f.upstream.timeoutMs);

  let answer: Dispatcher.ResponseData;
  try {
    // Inside the try: a stored URL always parses (upstreamSchema), but a bad one must be a 502, not a throw.
    const target = parsedUpstream(f.upstream.url);
    answer = await gatewayAgent().request({
      origin: target.origin,
      path: target.prefix + restOf(f.path),
      method: (f.req.method ?? "GET") as Dispatcher.HttpMethod,
      headers: upstreamRequestHeaders(f.req.headers, {
        clientIp: f.clientIp,
        proto: (f.req.socket as TLSSocket).encrypted ? "https" : "http",
        tenantId: f.tenantId,
        keyId: f.keyId,
      }),
      body: hasBody(f.req) ? f.req : null,
      signal: abort,
      // The timer above covers connect + headers; this one is the silence allowed between body chunks.
      headersTimeout: f.upstream.timeoutMs,
      bodyTimeout: f.upstream.timeoutMs,
    });
  } catch (error) {
    clearTimeout(timer);
    const outcome: Outcome = clientGone
      ? "aborted"
      : timedOut || (error as { code?: string }).code === "UND_ERR_HEADERS_TIMEOUT"
        ? "timeout"
        : "unreachable";
    observe(outcome);
    if (outcome === "timeout")
      writeGatewayProblem(
        f.res,
        "upstream_timeout",
        `The upstream did not answer within ${f.upstream.timeoutMs} ms.`,
        f.rateLimitHeaders,
      );
    else if (outcome === "unreachable")
      writeGatewayProblem(f.res, "upstream_unreachable", "The upstream could not be reached.", f.rateLimitHeaders);
    // Only a status the client was sent (a response already gone cannot take a problem).
    if (outcome !== "aborted" && f.res.headersSent) f.onStatus?.(f.res.statusCode);
    return;
  }
  clearTimeout(timer);
  observe(statusClass(answer.statusCode));
  try {
    f.res.writeHead(answer.statusCode, clientResponseHeaders(answer.headers, f.rateLimitHeaders));
  } catch {
    // Node refused what the upstream sent (an invalid header value or status): not forwardable.
    answer.body.destroy();
    writeGatewayProblem(
      f.res,
      "upstream_unreachable",
      "The upstream sent a response that cannot be forwarded.",
      f.rateLimitHeaders,
    );
    if (f.res.headersSent) f.onStatus?.(f.res.statusCode);
    return;
  }
  f.onStatus?.(answer.statusCode);
  await pipeBody(answer.body, f.res);
  f.res.off("close", onClose);
}

/**
 * Pipes the upstream's body into the client's response (backpressure both ways) and resolves once
 * the response has finished, or once either side failed: a mid-body failure (upstream reset, body
 * timeout) ends the client's connection so the truncation shows; a client gone destroys the body
 * (undici aborts the upstream request). Not `stream.pipeline`: it makes an AbortController per
 * call and aborts it on completion, whose DOMException (a captured stack) cost ~4% of the
 * gateway's CPU per request.
 */
function pipeBody(body: Readable, res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (failed: boolean) => {
      body.off("error", onError);
      res.off("finish", onFinish);
      res.off("close", onResClose);
      res.off("error", onError);
      if (failed) {
        body.unpipe(res);
        body.destroy();
        if (!res.destroyed) res.destroy();
      }
      resolve();
    };
    const onFinish = () => done(false);
    const onError = () => done(true);
    const onResClose = () => done(!res.writableFinished);
    body.once("error", onError);
    res.once("finish", onFinish);
    res.once("close", onResClose);
    res.once("error", onError);
    body.pipe(res);
  });
}
