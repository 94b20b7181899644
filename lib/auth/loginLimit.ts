/**
 * Login attempts, limited by Sluice's own limiter (lib/limiter/decide.ts) under the internal
 * tenant `-login` (a `-` never occurs in a tenant id, so no real tenant shares its counters):
 * at most 10 failed logins per client IP and 5 per email in any 15 minutes (sliding_window,
 * failMode open: a Redis outage must not lock operators out).
 *
 * Only failures count, so operators who log in often are never limited by their own successes:
 * - `checkLoginAllowed` peeks (charges nothing); when a rule has no unit left it asks `decide`
 *   for the exact wait (a refused decision charges nothing either). If quota came back in between,
 *   that decide has charged this attempt already (`charged: true`).
 * - `recordLoginFailure` charges one unit to both rules at once.
 * Callers run check → verify → record one at a time per IP and email (SerialByKey), so parallel
 * guesses cannot all pass the check before any failure is recorded. Across N instances, a burst
 * can overshoot a limit by at most N - 1 attempts.
 * Emails reach Redis only as a truncated SHA-256, never in clear.
 */
import { createHash } from "node:crypto";
import type { Limiter } from "../limiter/decide";
import { LimiterUnavailableError, type LimiterRule, type Subject } from "../limiter/types";

/** The hash tag of the login counters. */
export const LOGIN_TENANT = "-login";
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_FAILURES_PER_IP = 10;
export const LOGIN_FAILURES_PER_EMAIL = 5;

const rule = (name: string, ref: string, scope: "ip" | "identifier", limit: number): LimiterRule => ({
  name,
  ref,
  scope,
  algorithm: "sliding_window",
  limit,
  windowMs: LOGIN_WINDOW_MS,
  burst: limit,
  cost: 1,
  failMode: "open",
  mode: "enforce",
});

export const LOGIN_RULES: readonly LimiterRule[] = [
  rule("login-per-ip", "ip", "ip", LOGIN_FAILURES_PER_IP),
  rule("login-per-email", "email", "identifier", LOGIN_FAILURES_PER_EMAIL),
];

export function loginSubject(ip: string, email: string): Subject {
  return { tenantId: LOGIN_TENANT, ip, identifier: createHash("sha256").update(email).digest("base64url").slice(0, 22) };
}

export type LoginGate = { allowed: true; charged: boolean } | { allowed: false; retryAfterMs: number; retryAt: Date };

export async function checkLoginAllowed(limiter: Limiter, subject: Subject): Promise<LoginGate> {
  try {
    const peeked = await limiter.peek([...LOGIN_RULES], subject);
    if (peeked.results.every((r) => r.remaining >= 1)) return { allowed: true, charged: false };
  } catch (error) {
    if (error instanceof LimiterUnavailableError) return { allowed: true, charged: false };
    throw error;
  }
  const decision = await limiter.decide([...LOGIN_RULES], subject);
  if (decision.allowed) return { allowed: true, charged: true };
  return { allowed: false, retryAfterMs: decision.retryAfterMs, retryAt: new Date(decision.nowMs + decision.retryAfterMs) };
}

export async function recordLoginFailure(limiter: Limiter, subject: Subject): Promise<void> {
  await limiter.decide([...LOGIN_RULES], subject);
}
