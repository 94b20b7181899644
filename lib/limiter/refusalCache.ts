/**
 * Per-instance cache of refusals. When Redis refuses a request until time T, an identical request
 * (same rules, same counters, same cost) is refused locally until T without a Redis call: no quota of
 * a refusing rule can come back sooner, so this never refuses what Redis would admit. Abusive clients
 * then cost Redis nothing.
 *
 * Entries are keyed by the request's fingerprint (counter keys + rule parameters + cost), so a rule
 * change misses the cache by construction; `dropTenant` also drops a tenant's entries explicitly when
 * its rules change. Times use this process's monotonic-enough clock (elapsed time only).
 * The other rules' figures in a cached refusal are those of the original refusal (aged by elapsed time).
 */
import { BoundedMap } from "./boundedMap";
import type { Decision } from "./types";

interface Entry {
  decision: Decision;
  storedAt: number;
}

export class RefusalCache {
  private readonly map: BoundedMap<Entry>;

  constructor(maxEntries = 100_000) {
    this.map = new BoundedMap(maxEntries);
  }

  get(fingerprint: string, now: number): Decision | undefined {
    const entry = this.map.get(fingerprint, now);
    if (!entry) return undefined;
    const elapsed = now - entry.storedAt;
    const age = (ms: number) => Math.max(0, ms - elapsed);
    const d = entry.decision;
    return {
      ...d,
      nowMs: d.nowMs + elapsed,
      retryAfterMs: Math.max(1, d.retryAfterMs - elapsed),
      results: d.results.map((r) => ({
        ...r,
        resetMs: age(r.resetMs),
        nextMs: age(r.nextMs),
        retryAfterMs: r.allowed ? 0 : Math.max(1, r.retryAfterMs - elapsed),
        source: "cache",
      })),
    };
  }

  /** Remembers a refused decision until it could pass; ignores anything else. */
  remember(fingerprint: string, decision: Decision, now: number): void {
    if (decision.allowed || decision.unavailable || decision.retryAfterMs <= 0) return;
    this.map.set(fingerprint, { decision, storedAt: now }, now + decision.retryAfterMs);
  }

  /** Drops every cached refusal of one tenant (its rules changed). */
  dropTenant(tenantKeyPrefix: string): void {
    this.map.deleteWhere((fingerprint) => fingerprint.startsWith(tenantKeyPrefix));
  }

  get size(): number {
    return this.map.size;
  }
}
