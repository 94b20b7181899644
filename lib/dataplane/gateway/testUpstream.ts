/**
 * "Test connection" for a tenant's upstream (issue 31, point 4): one GET to the upstream's URL from
 * this server, through the gateway's own agent (lib/dataplane/gateway/gatewayAgent.ts), so the same address guard applies (lib/http/guardedLookup.ts: never a
 * link-local address, after resolution; an IP literal judged here first) and the same timeout.
 *
 * Contract
 * - Answers what happened as a value, never throws: `ok` when the upstream answered with any
 *   status below 500 (it is reachable and serving; a 404 at its root is common), its status and
 *   the time to its headers; or `error` in words that name no address ("connection refused",
 *   "timed out after 2,500 ms", "resolves only to link-local addresses").
 * - The body is read and dropped (at most what arrives before it ends); no credentials, cookies or
 *   Sluice headers are sent: a plain `GET` with `user-agent: sluice-upstream-test`.
 */
import { errors } from "undici";
import { isAddressNotAllowed } from "../../http/guardedLookup";
import { UPSTREAM_ADDRESS_REFUSED, upstreamAddressAllowed } from "../../policy/upstreams/upstreamAddress";
import type { UpstreamTarget, UpstreamTestResult } from "../../policy/upstreams/upstreamSchema";
import { gatewayAgent } from "./gatewayAgent";
import type { Dispatcher } from "undici";

function reason(error: unknown, timeoutMs: number): string {
  if (isAddressNotAllowed(error)) return `the upstream's address ${UPSTREAM_ADDRESS_REFUSED}`;
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.ConnectTimeoutError)
    return `no answer within ${timeoutMs.toLocaleString("en")} ms`;
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } })?.code ??
    (error as { cause?: { code?: unknown } })?.cause?.code;
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name does not resolve";
    default:
      return "the upstream could not be reached";
  }
}

export async function testUpstream(
  target: Pick<UpstreamTarget, "url" | "timeoutMs">,
  dispatcher: Dispatcher = gatewayAgent(),
  now: () => number = () => performance.now(),
): Promise<UpstreamTestResult> {
  const started = now();
  const url = new URL(target.url);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!upstreamAddressAllowed(host))
    return { ok: false, status: null, latencyMs: 0, error: `the upstream's address ${UPSTREAM_ADDRESS_REFUSED}` };
  try {
    const answer = await dispatcher.request({
      origin: url.origin,
      path: (url.pathname || "/") + url.search,
      method: "GET",
      headers: { "user-agent": "sluice-upstream-test" },
      headersTimeout: target.timeoutMs,
      bodyTimeout: target.timeoutMs,
    });
    const latencyMs = Math.round(now() - started);
    await answer.body.dump().catch(() => undefined);
    const ok = answer.statusCode < 500;
    return {
      ok,
      status: answer.statusCode,
      latencyMs,
      error: ok ? null : `the upstream answered ${answer.statusCode}`,
    };
  } catch (error) {
    return { ok: false, status: null, latencyMs: Math.round(now() - started), error: reason(error, target.timeoutMs) };
  }
}
