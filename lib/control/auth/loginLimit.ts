/**
 * Login attempts, limited by Sluice's own limiter (lib/limiter/decide.ts) under the internal
 * tenant `-login` (a `-` never occurs in a tenant id, so no real tenant shares its counters).
 * Failed logins in any 15 minutes (sliding_window, failMode open: a Redis outage must not lock
 * operators out) are counted three ways:
 * - per client address: 10 (one address guessing many emails);
 * - per (email, address): 5 (one address guessing one operator's password);
 * - per email: 50, a ceiling for guesses spread over many addresses.
 * An address that has no failure for this email in the window may always try it, even past the
 * email's ceiling: knowing an operator's email is not enough to lock them out, and the operator,
 * from their own address, gets in with the right password. Past the ceiling each new address gets
 * one guess (its failure then counts against it), and at most 10 per address overall.
 *
 * Only failures count, so operators who log in often are never limited by their own successes:
 * - `checkLoginAllowed` peeks (charges nothing) and refuses with the longest wait of the rules that
 *   refuse;
 * - `recordLoginFailure` charges one unit to each rule that still has room, independently (a full
 *   email ceiling must not stop the address's own count).
 * Callers run check → verify → record one at a time per address and email (SerialByKey), so
 * parallel guesses cannot all pass the check before any failure is recorded. Across N instances,
 * a burst can overshoot a limit by at most N - 1 attempts.
 * Emails reach Redis only as a truncated SHA-256, never in clear; so does the (email, address) pair.
 */
import { createHash } from "node:crypto";
import type { Limiter } from "../../limiter/decide";
import { limitingAddress } from "../../limiter/limitingAddress";
import { LimiterUnavailableError, type LimiterRule, type Subject } from "../../limiter/types";

/** The hash tag of the login counters. */
export const LOGIN_TENANT = "-login";
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_FAILURES_PER_IP = 10;
export const LOGIN_FAILURES_PER_EMAIL_AND_IP = 5;
export const LOGIN_FAILURES_PER_EMAIL = 50;

const rule = (name: string, ref: string, scope: "ip" | "identifier" | "key", limit: number): LimiterRule => ({
  name,
  ref,
  scope,
  algorithm: "sliding_window",
  limit,
  windowMs: LOGIN_WINDOW_MS,
  burst: limit,
  cost: 1,
  blockMs: 0,
  failMode: "open",
  mode: "enforce",
});

/**
 * In this order. The (email, address) pair is counted under the `key` scope: the subject's keyId
 * is the pair's digest (the login tenant has no API keys).
 */
export const LOGIN_RULES: readonly LimiterRule[] = [
  rule("login-per-ip", "ip", "ip", LOGIN_FAILURES_PER_IP),
  rule("login-per-email-and-ip", "pair", "key", LOGIN_FAILURES_PER_EMAIL_AND_IP),
  rule("login-per-email", "email", "identifier", LOGIN_FAILURES_PER_EMAIL),
];
const [, PER_PAIR, PER_EMAIL] = LOGIN_RULES as [LimiterRule, LimiterRule, LimiterRule];

const digest = (text: string): string => createHash("sha256").update(text).digest("base64url").slice(0, 22);

export function loginSubject(ip: string, email: string): Subject {
  return { tenantId: LOGIN_TENANT, ip, identifier: digest(email), keyId: digest(`${email}\n${limitingAddress(ip)}`) };
}

export type LoginGate = { allowed: true } | { allowed: false; retryAfterMs: number; retryAt: Date };

export async function checkLoginAllowed(limiter: Limiter, subject: Subject): Promise<LoginGate> {
  let peeked;
  try {
    peeked = await limiter.peek([...LOGIN_RULES], subject);
  } catch (error) {
    if (error instanceof LimiterUnavailableError) return { allowed: true };
    throw error;
  }
  const pair = peeked.results.find((r) => r.rule === PER_PAIR);
  // No failure of this address for this email in the window: the email's ceiling does not apply.
  const freshAddress = pair !== undefined && pair.remaining >= PER_PAIR.limit;
  const refusing = peeked.results.filter((r) => !r.allowed && !(r.rule === PER_EMAIL && freshAddress));
  if (refusing.length === 0) return { allowed: true };
  const retryAfterMs = Math.max(...refusing.map((r) => r.retryAfterMs));
  return { allowed: false, retryAfterMs, retryAt: new Date(peeked.nowMs + retryAfterMs) };
}

/** Charges the failure to every rule with room left, each on its own (as shadow rules consume). */
export async function recordLoginFailure(limiter: Limiter, subject: Subject): Promise<void> {
  await limiter.decide(
    LOGIN_RULES.map((r) => ({ ...r, mode: "shadow" as const })),
    subject,
  );
}
