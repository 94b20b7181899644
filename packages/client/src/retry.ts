/**
 * Retrying a call that Sluice refused for now (429, 503) or that failed on the network, with
 * exponential backoff and full jitter, honouring `Retry-After` when the answer carries one.
 *
 * - Bounded: at most `maxAttempts` calls (default 3); the last answer is returned as it is (a 429
 *   stays a 429 for the caller to handle), the last network error is thrown.
 * - A wait is `Retry-After` when given (never shortened: retrying earlier is refused again),
 *   else a random delay in [0, min(maxDelayMs, baseDelayMs * 2^attempt)] (full jitter: clients
 *   refused together do not come back together). A wait longer than `maxDelayMs` is not made:
 *   the answer is returned at once.
 * - Abortable: the signal aborts a wait and the call itself; an aborted retry rejects with the
 *   signal's reason.
 * - Timed: `timeoutMs` bounds the whole call, retries and waits included. An attempt still
 *   unanswered then is aborted and the call rejects with SluiceTimeoutError; a wait that would end
 *   after the deadline is not made (the last answer is returned, the last error thrown). A server
 *   that accepts and never answers costs a caller `timeoutMs`, not its own patience.
 */
import { retryAfterMs } from "./rateLimitHeaders.js";

export interface RetryOptions {
  /** Calls at most, the first included (default 3; 1 disables retrying). */
  maxAttempts?: number;
  /** First backoff ceiling in ms (default 100). */
  baseDelayMs?: number;
  /** Longest wait in ms (default 10,000): a longer Retry-After is not waited for. */
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Longest the whole call may take, retries and waits included (default: no limit). */
  timeoutMs?: number;
  /** For tests: the random source in [0, 1) and the sleep. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told before each wait (attempt number starting at 1, the wait, why). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

export const RETRYABLE_STATUS = new Set([429, 503]);

/** A call to Sluice that got no answer within its `timeoutMs`. */
export class SluiceTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Sluice did not answer within ${timeoutMs} ms`);
    this.name = "SluiceTimeoutError";
  }
}

/** A sleep that ends early, rejecting with the signal's reason, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function backoffDelayMs(
  attempt: number,
  options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random">,
): number {
  const base = options.baseDelayMs ?? 100;
  const max = options.maxDelayMs ?? 10_000;
  const ceiling = Math.min(max, base * 2 ** (attempt - 1));
  return Math.floor((options.random ?? Math.random)() * ceiling);
}

/** Calls `call` until it answers with a status other than 429/503, or attempts or time run out. */
export async function withRetry(
  call: (signal?: AbortSignal) => Promise<Response>,
  options: RetryOptions = {},
): Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const maxDelay = options.maxDelayMs ?? 10_000;
  const sleep = options.sleep ?? abortableSleep;
  const { timeoutMs } = options;
  const deadline = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const endsAt = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  const signals = [options.signal, deadline].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  /** The caller's abort wins; else a deadline that passed is a SluiceTimeoutError. */
  const timedOut = () => !options.signal?.aborted && deadline?.aborted === true;
  const wait = (ms: number) =>
    sleep(ms, signal).catch((error: unknown) => {
      throw timedOut() ? new SluiceTimeoutError(timeoutMs!) : error;
    });
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    if (timedOut()) throw new SluiceTimeoutError(timeoutMs!);
    let response: Response;
    try {
      response = await call(signal);
    } catch (error) {
      if (timedOut()) throw new SluiceTimeoutError(timeoutMs!);
      if (options.signal?.aborted || attempt >= maxAttempts) throw error;
      const delayMs = backoffDelayMs(attempt, options);
      if (Date.now() + delayMs >= endsAt) throw error;
      options.onRetry?.({ attempt, delayMs, reason: `network error: ${(error as Error).message}` });
      await wait(delayMs);
      continue;
    }
    if (!RETRYABLE_STATUS.has(response.status) || attempt >= maxAttempts) return response;
    const told = retryAfterMs(response.headers.get("retry-after"));
    const delayMs = told ?? backoffDelayMs(attempt, options);
    if (delayMs > maxDelay || Date.now() + delayMs >= endsAt) return response;
    // The body of an answer we will not return is not needed: free the connection.
    await response.body?.cancel().catch(() => undefined);
    options.onRetry?.({ attempt, delayMs, reason: `status ${response.status}` });
    await wait(delayMs);
  }
}
