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
 *   both ways (undici reads the client's body only as fast as the upstream takes it; each chunk of
 *   the answer is written to the client's response, and undici stops reading the upstream until
 *   that response drains). A client that goes away aborts the upstream request.
 * - Through undici's `dispatch` with a handler (`Exchange`), not `Agent.request`, whose Readable
 *   per answer (an AsyncResource and a promise), piped into the response, cost ~15% of the
 *   gateway's CPU per request.
 * - With the upstream's `signingSecret`, the request carries `X-Sluice-Signature` over its method,
 *   target and key id (lib/policy/upstreams/upstreamSignature.ts), made afresh for each attempt.
 * - The upstream's status, headers and body come back as they are, with the rate-limit headers set.
 * - Never connects to a link-local address (lib/policy/upstreams/upstreamAddress.ts: cloud metadata
 *   services answer there): the agent's `lookup` hands the socket only the allowed addresses a name
 *   resolves to (lib/http/guardedLookup.ts), so what is judged is what is connected to; an IP
 *   literal (never looked up) is judged before dispatch. None allowed: 502 saying so.
 * - Upstream unreachable (refused, reset, DNS, TLS, connect timeout) or answering what cannot be
 *   read or forwarded (headers over 16 KiB, not HTTP/1.1): 502. Status and headers not there within
 *   `timeoutMs`, connect and TLS handshake included, counted from the last chunk of the client's
 *   body sent (an upload is timed by its silences): 504. Both problem+json that name no host or
 *   error; when the client's body was not read to its end, they close the connection.
 * - A GET, HEAD or OPTIONS without a body that fails on its connection before any answer is sent
 *   once more, on a new connection (`retryable`); nothing else is retried.
 * - An upstream whose body fails (or stays silent for `timeoutMs`) after its headers were sent ends
 *   the client's connection: a problem can no longer be sent, and a truncated body must not pass
 *   for a whole one.
 * - Resolves once the exchange is over (answered, failed or aborted); never rejects. A response
 *   already destroyed when it is called (the client reset during admission) is not forwarded at
 *   all: the exchange is over at once, as aborted.
 * - `onStatus` is told the status the client is sent, once it is sent: the upstream's, or 502/504
 *   of Sluice's own; never when the client went away first (count by response, rule field chargeOn).
 * - Metrics: sluice_gateway_responses_total and sluice_gateway_upstream_duration_seconds by
 *   outcome (status class, unreachable, timeout, aborted).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { Agent, errors, util, type Dispatcher } from "undici";
import { ADDRESS_NOT_ALLOWED, guardedLookup, isAddressNotAllowed } from "../../http/guardedLookup";
import { metrics } from "../../monitoring/prometheus/metrics";
import { UPSTREAM_ADDRESS_REFUSED, upstreamAddressAllowed } from "../../policy/upstreams/upstreamAddress";
import type { UpstreamTarget } from "../../policy/upstreams/upstreamSchema";
import { signUpstreamRequest } from "../../policy/upstreams/upstreamSignature";
import { clientResponseHeaders, upstreamRequestHeaders } from "./forwardHeaders";
import { guardedAnswerHeaders, withoutSluiceCookies } from "./sluiceCookies";
import { writeGatewayProblem } from "./gatewayProblem";

export interface ForwardRequest {
  req: IncomingMessage;
  res: ServerResponse;
  upstream: UpstreamTarget;
  /** The path and query after /api/v1, e.g. "/orders/42?x=1". */
  path: string;
  clientIp: string;
  /** The connection is a trusted proxy's (lib/http/clientIp.ts): its X-Forwarded-Proto/-Host pass on. */
  viaTrustedProxy: boolean;
  tenantId: string;
  /** The caller's key id; "" for a JWT or anonymous caller (no X-Sluice-Key then). */
  keyId: string;
  /** The credential header Sluice consumed (removed), null for none; absent: forwardHeaders.ts consumedCredential. */
  credential?: "authorization" | "x-api-key" | null;
  rateLimitHeaders: Record<string, string>;
  /** Told the status sent to the client (see above). Must not throw. */
  onStatus?: (status: number) => void;
}

type Outcome = "1xx" | "2xx" | "3xx" | "4xx" | "5xx" | "unreachable" | "timeout" | "aborted";

/** Idle keep-alive connections live this long unless the upstream announces a shorter time. */
const KEEP_ALIVE_MS = 10_000;
/** A TCP/TLS connect that takes longer than this is an unreachable upstream (502). */
const CONNECT_TIMEOUT_MS = 10_000;

const upstreamLookup = guardedLookup(upstreamAddressAllowed, (host) => `${host} resolves only to link-local addresses`);

const globalForGateway = globalThis as unknown as { sluiceGatewayAgent?: Agent };

/** The process's HTTP client: undici's Agent keeps one connection Pool per upstream origin. */
export function gatewayAgent(): Agent {
  globalForGateway.sluiceGatewayAgent ??= new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: 60_000,
    connect: { timeout: CONNECT_TIMEOUT_MS, lookup: upstreamLookup },
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

/**
 * The upstream's request target: `path` (what follows /api/v1, query included) under the upstream
 * URL's path prefix. `/api/v1` itself (`path` "" or "?x=1") is the upstream URL's own path, as the
 * contract maps `/api/v1/orders/42` to `<upstream>/orders/42`: with upstream `http://u/v2`, `/v2`,
 * not `/v2/` (and `/` when the URL has no path).
 */
export function upstreamPath(prefix: string, path: string): string {
  if (path === "" || path.startsWith("?")) return (prefix || "/") + path;
  return prefix + (path.startsWith("/") ? path : `/${path}`);
}

const pathPrefixOf = (upstreamUrl: URL): string => upstreamUrl.pathname.replace(/\/+$/, "");

/**
 * An upstream URL parsed: origin, path prefix, and whether its host, when an IP literal, may be
 * connected to (a URL stored before upstreamSchema refused link-local ones).
 */
interface ParsedUpstream {
  origin: string;
  prefix: string;
  addressAllowed: boolean;
}

/** Upstream URLs parsed once (a tenant's URL changes rarely). Bounded: cleared when full. */
const parsedUpstreams = new Map<string, ParsedUpstream>();
const MAX_PARSED_UPSTREAMS = 1_000;

function parsedUpstream(url: string): ParsedUpstream {
  let parsed = parsedUpstreams.get(url);
  if (!parsed) {
    const target = new URL(url);
    parsed = {
      origin: target.origin,
      prefix: pathPrefixOf(target),
      addressAllowed: upstreamAddressAllowed(target.hostname),
    };
    if (parsedUpstreams.size >= MAX_PARSED_UPSTREAMS) parsedUpstreams.clear();
    parsedUpstreams.set(url, parsed);
  }
  return parsed;
}

const statusClass = (status: number): Outcome => `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx` as Outcome;

export function forwardToUpstream(f: ForwardRequest): Promise<void> {
  return new Promise<void>((resolve) => new Exchange(f, resolve).start());
}

const noop = () => {};

const IDEMPOTENT_WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

const UNFORWARDABLE = "The upstream sent a response that cannot be forwarded.";
const UNREACHABLE = "The upstream could not be reached.";
const ADDRESS_REFUSED = `The upstream's address ${UPSTREAM_ADDRESS_REFUSED}.`;

const unreachableDetail = (error: Error): string =>
  unreadable(error) ? UNFORWARDABLE : isAddressNotAllowed(error) ? ADDRESS_REFUSED : UNREACHABLE;

/**
 * The upstream answered, but not with a response undici can read: headers over Node's limit
 * (--max-http-header-size, 16 KiB by default) or not HTTP/1.1. Still a 502 (as nginx's "upstream
 * sent too big header"), but not "could not be reached", which would send its operator to the network.
 */
const unreadable = (error: Error): boolean =>
  error instanceof errors.HeadersOverflowError || error instanceof errors.HTTPParserError;

/**
 * One forwarded request, as undici's (legacy) dispatch handler: onConnect, onHeaders, onData,
 * onComplete, onError; undici calls exactly one of onComplete and onError, once. Settles (resolves
 * the caller's promise) once: after the response finished or closed, or at once on a failure.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private timer: NodeJS.Timeout | undefined;
  /** undici's abort of this request, once it has a connection. */
  private abortUpstream: ((reason: Error) => void) | undefined;
  /** Why the request was aborted before undici gave the abort (undici's Request applies it then). */
  private abortReason: Error | undefined;
  private timedOut = false;
  private clientGone = false;
  /** Sent once more already (a stale pooled connection, see `retryable`). */
  private retried = false;
  /** The upstream's status and headers were written to the client: the body is being forwarded. */
  private forwarding = false;
  /** Over (or given up by this side: undici's onError is ignored then). */
  private settled = false;
  private resumeUpstream: (() => void) | undefined;
  /** The client's connection, whose end (FIN) before the answer is finished means it went away. */
  private clientSocket: Socket | null = null;

  constructor(
    private readonly f: ForwardRequest,
    private resolve: (() => void) | undefined,
  ) {}

  start(): void {
    if (this.f.res.destroyed) {
      // The client went away while its admission was pending: its `close` has fired already, so
      // an exchange started now would never settle (nothing to write to, no close to abort on),
      // holding the upstream request (forever for a stream) and the caller's concurrency lease.
      this.clientGone = true;
      this.observe("aborted");
      this.settle();
      return;
    }
    this.f.res.once("close", this.onResClose);
    this.clientSocket = this.f.req.socket;
    this.clientSocket?.once("end", this.onClientEnd);
    this.timer = setTimeout(this.onTimeout, this.f.upstream.timeoutMs);
    this.dispatch();
  }

  private dispatch(): void {
    const f = this.f;
    let target: ParsedUpstream;
    try {
      // A stored URL always parses (upstreamSchema), but a bad one must be a 502, not a throw.
      target = parsedUpstream(f.upstream.url);
    } catch (error) {
      this.onError(error as Error);
      return;
    }
    if (!target.addressAllowed) {
      this.onError(Object.assign(new Error(ADDRESS_REFUSED), { code: ADDRESS_NOT_ALLOWED }));
      return;
    }
    const path = upstreamPath(target.prefix, f.path);
    const method = f.req.method ?? "GET";
    const headers = withoutSluiceCookies(
      upstreamRequestHeaders(f.req.headers, {
        clientIp: f.clientIp,
        viaTrustedProxy: f.viaTrustedProxy,
        proto: (f.req.socket as TLSSocket).encrypted ? "https" : "http",
        tenantId: f.tenantId,
        keyId: f.keyId,
        ...(f.credential !== undefined ? { credential: f.credential } : {}),
      }),
    );
    const secret = f.upstream.signingSecret;
    if (secret)
      headers["x-sluice-signature"] = signUpstreamRequest(secret, { method, target: path, keyId: f.keyId }, Date.now());
    // Errors (invalid options, a closed agent) come to onError, not as a throw.
    gatewayAgent().dispatch(
      {
        origin: target.origin,
        path,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: hasBody(f.req) ? f.req : null,
        // The exchange's timer covers connect, upload and headers; this one is the silence allowed
        // between the answer's body chunks.
        headersTimeout: f.upstream.timeoutMs,
        bodyTimeout: f.upstream.timeoutMs,
      },
      this,
    );
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.abortReason) abort(this.abortReason);
    else this.abortUpstream = abort;
  }

  /** An upload is timed by its silences: `timeoutMs` between chunks, then for the answer's headers. */
  onBodySent(): void {
    if (!this.forwarding && !this.settled) this.timer?.refresh();
  }

  onRequestSent(): void {
    this.onBodySent();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx informational answers are not forwarded (node:http sends its own 100-continue).
    if (statusCode < 200 || this.settled) return true;
    const f = this.f;
    clearTimeout(this.timer);
    this.observe(statusClass(statusCode));
    try {
      f.res.writeHead(
        statusCode,
        guardedAnswerHeaders(clientResponseHeaders(util.parseHeaders(rawHeaders), f.rateLimitHeaders)),
      );
    } catch {
      // Node refused what the upstream sent (an invalid header value or status): not forwardable.
      this.settled = true;
      this.abortUpstream?.(new errors.RequestAbortedError());
      writeGatewayProblem(f.res, "upstream_unreachable", UNFORWARDABLE, f.rateLimitHeaders);
      if (f.res.headersSent) f.onStatus?.(f.res.statusCode);
      this.settle();
      return false;
    }
    f.onStatus?.(statusCode);
    this.forwarding = true;
    this.resumeUpstream = resume;
    f.res.once("finish", this.onResFinish);
    f.res.once("error", this.onResError);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.f.res.write(chunk)) return true;
    // The client is slower than the upstream: undici stops reading until the response drains.
    this.f.res.once("drain", this.onDrain);
    return false;
  }

  onComplete(): void {
    this.f.res.end();
  }

  onError(error: Error): void {
    if (this.settled) return;
    const f = this.f;
    if (this.retryable(error)) {
      this.retried = true;
      this.abortUpstream = undefined;
      this.dispatch();
      return;
    }
    clearTimeout(this.timer);
    // As undici's own request API does: the client's body is not read any further (without
    // destroying the client's socket, which the answer below still needs). The rest of the body
    // is then never read from the connection, so the answer closes it: kept alive, it would hang
    // until the server's keep-alive timeout, the client's next request on it unanswered.
    let headers = f.rateLimitHeaders;
    if (hasBody(f.req) && !f.req.destroyed) {
      if (!f.req.complete) headers = { ...headers, connection: "close" };
      f.req.on("error", noop);
      (f.req as unknown as { socket: unknown }).socket = null;
      f.req.destroy(error);
    }
    if (this.forwarding) {
      // Mid-body (upstream reset, body timeout, client gone): end the client's connection so the
      // truncation shows; a problem can no longer be sent.
      if (!f.res.destroyed) f.res.destroy();
      this.settle();
      return;
    }
    const outcome: Outcome = this.clientGone
      ? "aborted"
      : this.timedOut || (error as { code?: string }).code === "UND_ERR_HEADERS_TIMEOUT"
        ? "timeout"
        : "unreachable";
    this.observe(outcome);
    if (outcome === "timeout")
      writeGatewayProblem(
        f.res,
        "upstream_timeout",
        `The upstream did not answer within ${f.upstream.timeoutMs} ms.`,
        headers,
      );
    else if (outcome === "unreachable")
      writeGatewayProblem(f.res, "upstream_unreachable", unreachableDetail(error), headers);
    // Only a status the client was sent (a response already gone cannot take a problem).
    if (outcome !== "aborted" && f.res.headersSent) f.onStatus?.(f.res.statusCode);
    this.settle();
  }

  private observe(outcome: Outcome): void {
    const m = metrics();
    m.gatewayResponses.inc({ outcome });
    m.gatewaySeconds.observe({ outcome }, (performance.now() - this.started) / 1000);
  }

  private abort(): void {
    const reason = new errors.RequestAbortedError();
    if (this.abortUpstream) {
      this.abortUpstream(reason);
      return;
    }
    // Not connected yet (a connect or TLS handshake under way, up to CONNECT_TIMEOUT_MS): undici
    // applies the reason once it connects (onConnect), and this exchange ends now, with its 504 or
    // as aborted, not when the connect gives up.
    this.abortReason = reason;
    this.onError(reason);
  }

  /**
   * Sent again once, on a new connection: an idempotent request without a body (GET, HEAD,
   * OPTIONS) that failed on its connection before any answer. The usual cause is a pooled
   * keep-alive connection the upstream closed just as it was reused (an upstream with an idle
   * timeout under KEEP_ALIVE_MS that does not announce it: gunicorn's is 2 s); nginx retries such
   * requests too (proxy_next_upstream error). Never a request with a body, nor a refused connect.
   */
  private retryable(error: Error): boolean {
    if (this.retried || this.forwarding || this.timedOut || this.clientGone || hasBody(this.f.req)) return false;
    if (!IDEMPOTENT_WITHOUT_BODY.has(this.f.req.method ?? "GET")) return false;
    return error instanceof errors.SocketError || (error as { code?: string }).code === "ECONNRESET";
  }

  private settle(): void {
    const resolve = this.resolve;
    if (!resolve) return;
    this.resolve = undefined;
    this.settled = true;
    clearTimeout(this.timer);
    const res = this.f.res;
    res.off("close", this.onResClose);
    // Held from start(): by now the request may have given its socket up (null).
    this.clientSocket?.off("end", this.onClientEnd);
    res.off("finish", this.onResFinish);
    res.off("error", this.onResError);
    res.off("drain", this.onDrain);
    resolve();
  }

  private readonly onTimeout = () => {
    this.timedOut = true;
    this.abort();
  };
  private readonly onDrain = () => this.resumeUpstream?.();
  private readonly onResFinish = () => this.settle();
  private readonly onResError = () => {
    if (!this.f.res.destroyed) this.f.res.destroy();
  };
  /**
   * The client ended its side of the connection before the answer was finished. The server answers
   * half-closed clients (lib/dataplane/httpServer.ts), so no `close` comes: a client that went away
   * would hold the upstream request (forever for a stream) and its concurrency lease. As nginx does
   * for a proxied request (its 499), the exchange is over: the response is destroyed (onResClose).
   */
  private readonly onClientEnd = () => {
    if (!this.f.res.writableFinished && !this.f.res.destroyed) this.f.res.destroy();
  };
  /** The response closed: finished (the exchange is over), or the client went away (abort upstream). */
  private readonly onResClose = () => {
    if (this.f.res.writableFinished) {
      this.settle();
      return;
    }
    this.clientGone = true;
    this.abort();
  };
}
