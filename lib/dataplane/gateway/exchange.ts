/**
 * One forwarded request's life (lib/dataplane/gateway/forwardToUpstream.ts has the contract), as
 * undici's (legacy) dispatch handler: onConnect, onHeaders, onData, onComplete, onError; undici
 * calls exactly one of onComplete and onError, once. Settles (resolves the caller's promise) once:
 * after the response finished or closed, or at once on a failure; never rejects.
 * - The timer: `timeoutMs` for connect, TLS, each silence of the upload, then the answer's headers.
 * - The retry: once, on a new connection, for a GET, HEAD or OPTIONS without a body that failed on
 *   its connection before any answer (`retryable`).
 * - The answer: status and headers copied (forwardHeaders.ts clientResponseHeaders, with the
 *   rate-limit headers; sluiceCookies.ts guardedAnswerHeaders), then the body chunk by chunk, with
 *   backpressure (undici stops reading the upstream until the response drains).
 * - The client going away (its response closed, or its side of the connection ended) aborts the
 *   upstream request; a failure mid-body destroys the client's response.
 * What is sent for a failure before any answer, and the metrics, are upstreamFailure.ts's.
 */
import type { Socket } from "node:net";
import { errors, util, type Dispatcher } from "undici";
import { ADDRESS_NOT_ALLOWED } from "../../http/guardedLookup";
import type { ForwardRequest } from "./forwardRequest";
import { clientResponseHeaders } from "./forwardHeaders";
import { gatewayAgent } from "./gatewayAgent";
import { writeGatewayProblem } from "./gatewayProblem";
import { guardedAnswerHeaders } from "./sluiceCookies";
import {
  ADDRESS_REFUSED,
  answerFailure,
  failureOutcome,
  observe,
  statusClass,
  UNFORWARDABLE,
  type Outcome,
} from "./upstreamFailure";
import { hasBody, upstreamRequest } from "./upstreamRequest";
import { parsedUpstream, type ParsedUpstream } from "./upstreamTarget";

const noop = () => {};

const IDEMPOTENT_WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

export class Exchange implements Dispatcher.DispatchHandler {
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
      observe("aborted", this.started);
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
    let target: ParsedUpstream;
    try {
      // A stored URL always parses (upstreamSchema), but a bad one must be a 502, not a throw.
      target = parsedUpstream(this.f.upstream.url);
    } catch (error) {
      this.onError(error as Error);
      return;
    }
    if (!target.addressAllowed) {
      this.onError(Object.assign(new Error(ADDRESS_REFUSED), { code: ADDRESS_NOT_ALLOWED }));
      return;
    }
    // Errors (invalid options, a closed agent) come to onError, not as a throw.
    gatewayAgent().dispatch(upstreamRequest(this.f, target), this);
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
    observe(statusClass(statusCode), this.started);
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
    const outcome: Outcome = failureOutcome(error, this.clientGone, this.timedOut);
    observe(outcome, this.started);
    answerFailure(f.res, outcome, error, f.upstream.timeoutMs, headers);
    // Only a status the client was sent (a response already gone cannot take a problem).
    if (outcome !== "aborted" && f.res.headersSent) f.onStatus?.(f.res.statusCode);
    this.settle();
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
