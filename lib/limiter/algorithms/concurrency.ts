/**
 * concurrency reference model; twin of lua/includes/concurrency.lua (decide) and lua/release.lua.
 *
 * Contract
 * - At most `limit` requests in flight per rule and subject. A request that every enforce rule
 *   admits takes `cost` (always 1: lib/policy/rules/ruleSchema.ts) slot as a lease: its id (one per
 *   request, the caller's) and its expiry, taken at + `windowMs` (the lease length).
 * - The lease is given back (`release`) once the request is over: the upstream's response ended or
 *   failed or timed out, the client went away, or Sluice's own answer was written.
 * - A lease whose expiry has come (expiresAt <= now) no longer counts: the slot of a request whose
 *   release never came (a lost instance) is free again at most `windowMs` after it was taken. A
 *   request that outlives its lease therefore frees its slot early: windowMs should exceed the
 *   upstream's timeoutMs (docs/rules.md).
 * - Refused: retry 1000 ms (Retry-After: 1; no time can be promised, a slot frees when some request
 *   ends); -1 (never) when cost > limit. remaining = free slots; reset and next are 0.
 * Pure: state in, state out, time passed in.
 */
import type { AlgorithmModel } from "./model";
import { ttlMs } from "./model";

/** The leases of one rule and subject, as the sorted set holds them (expired ones may linger). */
export type ConcurrencyState = readonly { id: string; expiresAt: number }[];

/** Retry time of a refusal: one second, the shortest Retry-After. */
export const CONCURRENCY_RETRY_MS = 1000;

const live = (state: ConcurrencyState | undefined, now: number) =>
  (state ?? []).filter((lease) => lease.expiresAt > now);

export const concurrency: AlgorithmModel<ConcurrencyState> = {
  evaluate(state, { limit, windowMs }, now, cost, lease = "") {
    const held = live(state, now);
    const used = held.length;
    const allowed = used + cost <= limit;
    const next = [...held.filter((l) => l.id !== lease), { id: lease, expiresAt: now + windowMs }];
    return {
      allowed,
      retryAfterMs: allowed ? 0 : cost > limit ? -1 : CONCURRENCY_RETRY_MS,
      before: { remaining: Math.max(0, limit - used), resetMs: 0, nextMs: 0 },
      after: { remaining: Math.max(0, limit - used - cost), resetMs: 0, nextMs: 0 },
      next: cost > 0 ? { state: next, ttlMs: ttlMs(Math.max(...next.map((l) => l.expiresAt)) - now) } : null,
    };
  },
};

/** Gives lease `id` back: the state without it, and whether it was still held (not expired, not released). */
export function releaseLease(
  state: ConcurrencyState | undefined,
  id: string,
  now: number,
): { state: ConcurrencyState; released: boolean } {
  const held = live(state, now).some((lease) => lease.id === id);
  return { state: (state ?? []).filter((lease) => lease.id !== id), released: held };
}
