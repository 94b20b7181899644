/**
 * Delivers one alert to its webhook: POST of the JSON body, signed per attempt
 * (lib/control/alerts/webhookSignature.ts), each attempt under a timeout, retried with exponential backoff
 * and jitter up to `policy.attempts` attempts in all.
 *
 * Contract
 * - 2xx: delivered. Retried: no answer (network error, timeout), 408, 425, 429 and 5xx. Not retried
 *   (the receiver or the address will not change its mind): other 4xx, 3xx (redirects are never
 *   followed: one could point at a private address), and an address the SSRF guard refuses
 *   (lib/control/alerts/webhookAddress.ts).
 * - The wait before attempt n+1 is `backoffDelayMs(n)`: half of min(maxDelayMs, baseDelayMs·2^(n-1))
 *   plus a random part of the other half ("equal jitter"), so instances that fired together do
 *   not retry in step, yet every wait is at least half its step.
 * - Never throws: the outcome is a value. Time, sleep and randomness are injected (tests).
 * Headers of each attempt: Content-Type, User-Agent, Sluice-Signature, Sluice-Alert-Id (the same
 * for every attempt, so a receiver can drop duplicates) and Sluice-Alert-Attempt, plus the target's own
 * (the billing hook's Idempotency-Key).
 */
import { SIGNATURE_HEADER, signatureHeader } from "./webhookSignature";

export interface DeliveryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest one attempt may take, answer included. */
  timeoutMs: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  attempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  timeoutMs: 5_000,
};

/** One attempt's transport: resolves with the status, rejects when no answer came. */
export type SendWebhook = (
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number }>;

export interface DeliveryDeps {
  send: SendWebhook;
  policy: DeliveryPolicy;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Told after each attempt (metrics); must not throw. */
  onAttempt?: (result: "ok" | "http_error" | "no_answer") => void;
}

export interface DeliveryOutcome {
  outcome: "delivered" | "failed";
  attempts: number;
  httpStatus: number | null;
  error: string | null;
}

export class AddressNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AddressNotAllowedError";
  }
}

/** The wait after failed attempt `attempt` (1-based), for a random number in [0, 1). */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<DeliveryPolicy, "baseDelayMs" | "maxDelayMs">,
  random: () => number,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

const retryableStatus = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

function reasonOf(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "timed out";
  if (e?.cause?.message) return e.cause.message;
  return e?.message ?? String(error);
}

/** Whether the failure came from the SSRF guard (directly, or as the cause of a fetch error). */
function refusedAddress(error: unknown): boolean {
  const e = error as { cause?: { code?: string } } | undefined;
  return error instanceof AddressNotAllowedError || e?.cause?.code === "EADDRNOTALLOWED";
}

export async function deliverWebhook(
  target: { url: string; secret: string; alertId: string; body: string; headers?: Record<string, string> },
  deps: DeliveryDeps,
): Promise<DeliveryOutcome> {
  let last: DeliveryOutcome = { outcome: "failed", attempts: 0, httpStatus: null, error: "not attempted" };
  for (let attempt = 1; attempt <= deps.policy.attempts; attempt++) {
    const headers = {
      "content-type": "application/json",
      "user-agent": "Sluice-Alerts/1",
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(target.secret, target.body, deps.clock()),
      "sluice-alert-id": target.alertId,
      "sluice-alert-attempt": String(attempt),
      ...target.headers,
    };
    let retry: boolean;
    try {
      const { status } = await deps.send(target.url, {
        headers,
        body: target.body,
        signal: AbortSignal.timeout(deps.policy.timeoutMs),
      });
      deps.onAttempt?.(status >= 200 && status < 300 ? "ok" : "http_error");
      if (status >= 200 && status < 300)
        return { outcome: "delivered", attempts: attempt, httpStatus: status, error: null };
      last = {
        outcome: "failed",
        attempts: attempt,
        httpStatus: status,
        error: status >= 300 && status < 400 ? `redirect ${status} (not followed)` : `receiver answered ${status}`,
      };
      retry = retryableStatus(status);
    } catch (error) {
      deps.onAttempt?.("no_answer");
      last = { outcome: "failed", attempts: attempt, httpStatus: null, error: reasonOf(error) };
      retry = !refusedAddress(error);
    }
    if (!retry || attempt === deps.policy.attempts) break;
    await deps.sleep(backoffDelayMs(attempt, deps.policy, deps.random));
  }
  return last;
}
