/**
 * What the middlewares share: one decision through Sluice's check API for an incoming request,
 * turned into the answer to give: pass (with the rate-limit headers to add) or refuse (429 with
 * Retry-After and a problem+json body, as Sluice itself refuses). When Sluice cannot decide
 * (unreachable, 5xx, its own refusal of the check call), `failMode` says what happens: `open`
 * (default) lets the request through without headers, `closed` answers 503. Sluice not answering
 * within the client's `timeoutMs` (default 1 s) is such a case: the request waits no longer.
 * Each check is charged to the tenant's `identifier` rule for the identifier, and the check call
 * itself to the calling key's own rules (those matching POST /api/v1/check), like any request.
 */
import { serializeList, type Item } from "structured-headers";
import { SluiceError, type CheckResult, type SluiceClient } from "../sluiceClient.js";

export interface ProtectOptions<Req> {
  client: SluiceClient;
  /** The tenant's `identifier`-scope rule to charge. */
  rule: string;
  /** Whose counter a request charges: a user id, an API consumer, a client address, ... */
  identifier: (request: Req) => string | Promise<string>;
  /** Units each request consumes (default: the rule's cost). */
  cost?: number | ((request: Req) => number);
  failMode?: "open" | "closed";
  /** Told when Sluice could not decide. */
  onError?: (error: unknown) => void;
}

export type Verdict =
  | { pass: true; headers: Record<string, string> }
  | { pass: false; status: 429 | 503; headers: Record<string, string>; body: Record<string, unknown> };

export const PROBLEM_TYPE = "application/problem+json";

/**
 * The headers of a decision, as Sluice puts them on its own answers: `RateLimit-Policy` (the rule's
 * quota and window; `w` only when Sluice said the window, as older servers do not), `RateLimit`,
 * the `X-RateLimit-*` trio, and `Retry-After` on a refusal.
 */
export function decisionHeaders(decision: CheckResult, nowMs: number = Date.now()): Record<string, string> {
  const policy = new Map<string, number>([["q", decision.limit]]);
  const windowMs = (decision as { windowMs?: number }).windowMs;
  if (typeof windowMs === "number") policy.set("w", Math.max(1, Math.ceil(windowMs / 1000)));
  const item: Item = [
    decision.rule,
    new Map([
      ["r", decision.remaining],
      ["t", Math.ceil(decision.resetMs / 1000)],
    ]),
  ];
  const headers: Record<string, string> = {
    "RateLimit-Policy": serializeList([[decision.rule, policy]]),
    RateLimit: serializeList([item]),
    "X-RateLimit-Limit": String(decision.capacity),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(Math.ceil((nowMs + decision.resetMs) / 1000)),
  };
  if (!decision.allowed) headers["Retry-After"] = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
  return headers;
}

export async function protect<Req>(options: ProtectOptions<Req>, request: Req, signal?: AbortSignal): Promise<Verdict> {
  let decision: CheckResult;
  try {
    const identifier = await options.identifier(request);
    const cost = typeof options.cost === "function" ? options.cost(request) : options.cost;
    decision = await options.client.check(
      { identifier, rule: options.rule, ...(cost === undefined ? {} : { cost }) },
      { signal },
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    options.onError?.(error);
    if (options.failMode === "closed") {
      const detail =
        error instanceof SluiceError
          ? `The rate limiter answered ${error.status}.`
          : "The rate limiter is unreachable.";
      return {
        pass: false,
        status: 503,
        headers: { "Retry-After": "1" },
        body: { type: "about:blank", title: "Service Unavailable", status: 503, detail },
      };
    }
    return { pass: true, headers: {} };
  }
  const headers = decisionHeaders(decision);
  if (decision.allowed) return { pass: true, headers };
  return {
    pass: false,
    status: 429,
    headers,
    body: {
      type: "https://iana.org/assignments/http-problem-types#quota-exceeded",
      title: "Too Many Requests",
      status: 429,
      detail: `Rate limit "${decision.rule}" exceeded; retry after ${headers["Retry-After"]} s.`,
      "violated-policies": [decision.rule],
      retryAfterMs: decision.retryAfterMs,
    },
  };
}
