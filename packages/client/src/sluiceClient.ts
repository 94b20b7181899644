/**
 * The Sluice client: `createSluiceClient({ baseUrl, apiKey })` gives
 * - `api`: an openapi-fetch client typed from Sluice's OpenAPI document (every /api/v1 and
 *   /api/admin call), with retries;
 * - `check({ identifier, rule, cost })`: the decision service (POST /api/v1/check). A refusal is a
 *   value (`allowed: false`), as Sluice answers it; the call itself being refused (the key's own
 *   limit, 429) or Sluice unavailable (503) is retried per `retry`, then thrown as SluiceError;
 * - `authorize({ method, uri, credential })`: forward auth (any method on /api/v1/authorize) for a
 *   request this program holds: 200 is `allowed`, 401/403/429/503 are refusals (values), with the
 *   rate-limit headers parsed.
 * Retries honour Retry-After, back off with jitter, are bounded and abortable (retry.ts).
 * Every call is timed, retries included: `timeoutMs` (default 1,000 ms) for the decisions check()
 * and authorize(), which sit in front of an app's own requests, `apiTimeoutMs` (default 10,000 ms)
 * for `api`; past it the call rejects with SluiceTimeoutError (the middlewares' failMode applies).
 * A catch-all path parameter (`/api/v1/{path}`, `/api/v1/echo/{rest}`) is encoded per segment, so
 * `orders/42` is sent as `/api/v1/orders/42` (pathParams.ts).
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "../generated/schema.js";
import { parseRateLimitHeaders, type RateLimitInfo } from "./rateLimitHeaders.js";
import { sluicePathSerializer } from "./pathParams.js";
import { withRetry, type RetryOptions } from "./retry.js";

/** Default `timeoutMs`: a decision in front of an app's request must not hold it for long. */
export const DEFAULT_DECISION_TIMEOUT_MS = 1_000;
/** Default `apiTimeoutMs`. */
export const DEFAULT_API_TIMEOUT_MS = 10_000;

export type SluiceApi = Client<paths>;
export type CheckInput = paths["/api/v1/check"]["post"]["requestBody"]["content"]["application/json"];
export type CheckAnswer = paths["/api/v1/check"]["post"]["responses"]["200"]["content"]["application/json"];
/** A tenant's tier (plan) as GET /api/admin/tenants/{tenantId}/tiers lists it: name, rules, live keys. */
export type Tier =
  paths["/api/admin/tenants/{tenantId}/tiers"]["get"]["responses"]["200"]["content"]["application/json"][number];

/**
 * A problem body (RFC 9457) as the OpenAPI document describes it; every field optional, since a
 * proxy between the caller and Sluice may answer a bare one.
 */
export type Problem = Partial<components["schemas"]["Problem"]> & { [extension: string]: unknown };

/** A call Sluice did not answer with a decision: its status and problem body. */
export class SluiceError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly rateLimit: RateLimitInfo,
  ) {
    super(`Sluice answered ${status}${problem?.detail ? `: ${problem.detail}` : ""}`);
    this.name = "SluiceError";
  }
}

export interface SluiceClientOptions {
  /** Where Sluice runs, e.g. `https://sluice.example.com`. */
  baseUrl: string;
  /** The tenant API key the calls are made with (`Authorization: Bearer`). */
  apiKey?: string;
  retry?: Omit<RetryOptions, "signal" | "timeoutMs">;
  /** Longest check() or authorize() may take, retries included (default 1,000 ms). */
  timeoutMs?: number;
  /** Longest a call through `api` may take, retries included (default 10,000 ms). */
  apiTimeoutMs?: number;
  fetch?: typeof fetch;
}

/** Per call: an AbortSignal, and a `timeoutMs` other than the client's. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface CheckResult extends CheckAnswer {
  /** The rate-limit headers of the check call itself (the key's own rules). */
  rateLimit: RateLimitInfo;
}

export interface AuthorizeInput {
  /** The original request's method and URI (path and query), as a proxy would forward them. */
  method: string;
  uri: string;
  /** The client's Sluice API key; defaults to the client's own. */
  credential?: string;
  /** The client's address chain (`X-Forwarded-For`), honoured as SLUICE_TRUST_PROXY allows. */
  forwardedFor?: string;
}

export interface AuthorizeResult {
  allowed: boolean;
  status: number;
  tenantId?: string;
  keyId?: string;
  rateLimit: RateLimitInfo;
  problem?: Problem;
}

export interface SluiceClient {
  api: SluiceApi;
  check(input: CheckInput, options?: CallOptions): Promise<CheckResult>;
  authorize(input: AuthorizeInput, options?: CallOptions): Promise<AuthorizeResult>;
}

const REFUSALS = new Set([401, 403, 429, 503]);

async function problemOf(response: Response): Promise<Problem | undefined> {
  try {
    return (await response.json()) as Problem;
  } catch {
    return undefined;
  }
}

export function createSluiceClient(options: SluiceClientOptions): SluiceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const baseFetch = options.fetch ?? globalThis.fetch;
  const decisionTimeoutMs = options.timeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS;
  // Each attempt sends a fresh copy: a Request's body can be read once.
  const retryingFetch = (timeoutMs: number) => (request: Request) =>
    withRetry((signal) => baseFetch(request.clone(), { signal }), {
      ...options.retry,
      timeoutMs,
      signal: request.signal,
    });
  const api = createClient<paths>({
    baseUrl,
    fetch: retryingFetch(options.apiTimeoutMs ?? DEFAULT_API_TIMEOUT_MS),
    pathSerializer: sluicePathSerializer,
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
  });

  return {
    api,
    async check(input, callOptions = {}) {
      const { data, error, response } = await api.POST("/api/v1/check", {
        body: input,
        signal: callOptions.signal,
        fetch: retryingFetch(callOptions.timeoutMs ?? decisionTimeoutMs),
      });
      const rateLimit = parseRateLimitHeaders(response.headers);
      if (!data) throw new SluiceError(response.status, error as Problem | undefined, rateLimit);
      return { ...data, rateLimit };
    },

    async authorize(input, callOptions = {}) {
      const credential = input.credential ?? options.apiKey;
      const headers: Record<string, string> = {
        "x-forwarded-method": input.method.toUpperCase(),
        "x-forwarded-uri": input.uri,
      };
      if (credential) headers.authorization = `Bearer ${credential}`;
      if (input.forwardedFor) headers["x-forwarded-for"] = input.forwardedFor;
      // 429 and 503 are answers here: the caller decides whether its own client should wait.
      const response = await withRetry(
        (signal) => baseFetch(`${baseUrl}/api/v1/authorize`, { method: "GET", headers, signal }),
        {
          ...options.retry,
          maxAttempts: 1,
          timeoutMs: callOptions.timeoutMs ?? decisionTimeoutMs,
          signal: callOptions.signal,
        },
      );
      const rateLimit = parseRateLimitHeaders(response.headers);
      if (response.status === 200) {
        await response.body?.cancel().catch(() => undefined);
        return {
          allowed: true,
          status: 200,
          tenantId: response.headers.get("x-sluice-tenant") ?? undefined,
          keyId: response.headers.get("x-sluice-key") ?? undefined,
          rateLimit,
        };
      }
      const problem = await problemOf(response);
      if (REFUSALS.has(response.status)) return { allowed: false, status: response.status, rateLimit, problem };
      throw new SluiceError(response.status, problem, rateLimit);
    },
  };
}
