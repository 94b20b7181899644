/**
 * The request the gateway sends upstream for one admitted request (one attempt: made afresh for
 * a retry, so its signature is fresh too), as undici dispatch options:
 * - method and body as they arrive (the body streamed: the client's request itself, or none when
 *   no framing header announces one), to `upstreamPath` under the upstream's origin;
 * - headers per lib/dataplane/gateway/forwardHeaders.ts, without Sluice's own cookies
 *   (sluiceCookies.ts);
 * - with the upstream's `signingSecret`, `X-Sluice-Signature` over its method, target and key id
 *   (lib/policy/upstreams/upstreamSignature.ts);
 * - `headersTimeout`/`bodyTimeout` of the upstream's `timeoutMs` (the exchange's own timer covers
 *   connect, upload and headers: exchange.ts; the body timeout is the silence allowed between
 *   the answer's chunks).
 * Pure apart from the clock the signature reads; throws nothing.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Dispatcher } from "undici";
import { signUpstreamRequest } from "../../policy/upstreams/upstreamSignature";
import type { ForwardRequest } from "./forwardRequest";
import { upstreamRequestHeaders } from "./forwardHeaders";
import { withoutSluiceCookies } from "./sluiceCookies";
import { upstreamPath, type ParsedUpstream } from "./upstreamTarget";

/** Whether the client sends a body: a framing header says so (a GET with neither has none). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

export function upstreamRequest(f: ForwardRequest, target: ParsedUpstream): Dispatcher.DispatchOptions {
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
  return {
    origin: target.origin,
    path,
    method: method as Dispatcher.HttpMethod,
    headers,
    body: hasBody(f.req) ? f.req : null,
    // The exchange's timer covers connect, upload and headers; this one is the silence allowed
    // between the answer's body chunks.
    headersTimeout: f.upstream.timeoutMs,
    bodyTimeout: f.upstream.timeoutMs,
  };
}
