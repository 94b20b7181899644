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
 *   services answer there): a name is judged as it resolves (gatewayAgent.ts), an IP literal
 *   (never looked up) before dispatch (upstreamTarget.ts). None allowed: 502 saying so.
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
 *
 * The parts, one purpose each: forwardRequest.ts (this input), upstreamTarget.ts (where it goes),
 * upstreamRequest.ts (the request sent: headers, signature, body, timeouts), gatewayAgent.ts (the
 * connection pools), exchange.ts (one exchange's life: timer, retry, streaming the answer back,
 * the client going away), upstreamFailure.ts (failures as outcomes and problem answers, metrics).
 */
import { Exchange } from "./exchange";
import type { ForwardRequest } from "./forwardRequest";

export function forwardToUpstream(f: ForwardRequest): Promise<void> {
  return new Promise<void>((resolve) => new Exchange(f, resolve).start());
}
