/**
 * How a forwarded exchange ends, for metrics and for the client: the outcome label
 * (sluice_gateway_responses_total and sluice_gateway_upstream_duration_seconds: status class,
 * unreachable, timeout, aborted) and, for a failure before any answer, the problem+json the client
 * is sent (gatewayProblem.ts), naming no host and no error:
 * - `timeout` (504): status and headers not there within the upstream's `timeoutMs`;
 * - `unreachable` (502): refused, reset, DNS, TLS, connect timeout; an address that may not be
 *   connected to (link-local: said so); or an answer that cannot be read or forwarded (headers
 *   over 16 KiB, not HTTP/1.1, a header value Node refuses: said so);
 * - `aborted`: the client went away first; nothing is written.
 * Pure, apart from `observe` (the metrics) and `answerFailure` (writes on the response, or
 * nothing once it has started or is gone).
 */
import type { ServerResponse } from "node:http";
import { errors } from "undici";
import { isAddressNotAllowed } from "../../http/guardedLookup";
import { metrics } from "../../monitoring/prometheus/metrics";
import { UPSTREAM_ADDRESS_REFUSED } from "../../policy/upstreams/upstreamAddress";
import { writeGatewayProblem } from "./gatewayProblem";

export type Outcome = "1xx" | "2xx" | "3xx" | "4xx" | "5xx" | "unreachable" | "timeout" | "aborted";

export const statusClass = (status: number): Outcome =>
  `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx` as Outcome;

export const UNFORWARDABLE = "The upstream sent a response that cannot be forwarded.";
const UNREACHABLE = "The upstream could not be reached.";
export const ADDRESS_REFUSED = `The upstream's address ${UPSTREAM_ADDRESS_REFUSED}.`;

/**
 * The upstream answered, but not with a response undici can read: headers over Node's limit
 * (--max-http-header-size, 16 KiB by default) or not HTTP/1.1. Still a 502 (as nginx's "upstream
 * sent too big header"), but not "could not be reached", which would send its operator to the network.
 */
const unreadable = (error: Error): boolean =>
  error instanceof errors.HeadersOverflowError || error instanceof errors.HTTPParserError;

const unreachableDetail = (error: Error): string =>
  unreadable(error) ? UNFORWARDABLE : isAddressNotAllowed(error) ? ADDRESS_REFUSED : UNREACHABLE;

/** A failure before any answer: the client went away, the exchange timed out, or the upstream could not be had. */
export function failureOutcome(error: Error, clientGone: boolean, timedOut: boolean): Outcome {
  if (clientGone) return "aborted";
  return timedOut || (error as { code?: string }).code === "UND_ERR_HEADERS_TIMEOUT" ? "timeout" : "unreachable";
}

/** The problem a failure before any answer is (nothing for `aborted`: the client is gone). */
export function answerFailure(
  res: ServerResponse,
  outcome: Outcome,
  error: Error,
  timeoutMs: number,
  headers: Record<string, string>,
): void {
  if (outcome === "timeout")
    writeGatewayProblem(res, "upstream_timeout", `The upstream did not answer within ${timeoutMs} ms.`, headers);
  else if (outcome === "unreachable")
    writeGatewayProblem(res, "upstream_unreachable", unreachableDetail(error), headers);
}

/** Counts the exchange's outcome and its time since `started` (performance.now()). */
export function observe(outcome: Outcome, started: number): void {
  const m = metrics();
  m.gatewayResponses.inc({ outcome });
  m.gatewaySeconds.observe({ outcome }, (performance.now() - started) / 1000);
}
