/**
 * Per-instance cache of refusals. When Redis refuses a request until time T, an identical request
 * (same rules, same counters, same cost) is refused locally until T without a Redis call: no quota of
 * a refusing rule can come back sooner, so this never refuses what Redis would admit. Abusive clients
 * then cost Redis nothing. A client under a penalty (blockMs) is refused until the penalty's end
 * (Redis's retry time then is that end), so it costs one Redis trip per penalty and request shape;
 * a counter reset lifts the penalty in Redis and drops the tenant's entries here (announced).
 * A refusal by a rule counted by response (chargeOn) outside a penalty is never kept: its quota comes
 * back as soon as a request in flight is answered with a class it does not list (a give-back).
 *
 * Entries are keyed by the request's fingerprint (counter keys + rule parameters + cost), so a rule
 * change misses the cache by construction. Entries are also indexed by tenant, so dropping one
 * tenant's entries touches only those; `rulesLoaded` drops them only when the tenant's compiled rules
 * really changed (a periodic full reload of unchanged rules keeps every refusal: abusive clients do
 * not reach Redis again after each reload). Times use this process's clock (elapsed time only).
 * The other rules' figures in a cached refusal are those of the original refusal (aged by elapsed time).
 * Bounded: past `maxEntries` the oldest-inserted entries go first; expired entries are dropped on read.
 */
import { ruleSpec } from "./ruleSpec";
import type { Decision, LimiterRule, RuleResult } from "./types";

interface Entry {
  decision: Decision;
  storedAt: number;
  expiresAt: number;
  tenantId: string;
}

export class RefusalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byTenant = new Map<string, Set<string>>();
  /** Fingerprint of each tenant's compiled rules, as last loaded. */
  private readonly rulesSeen = new Map<string, string>();

  constructor(private readonly maxEntries = 100_000) {}

  /** Whether any refusal of this tenant is cached (a Map lookup: lets a caller skip the fingerprint). */
  holdsTenant(tenantId: string): boolean {
    return this.byTenant.has(tenantId);
  }

  get(fingerprint: string, now: number): Decision | undefined {
    const entry = this.entries.get(fingerprint);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(fingerprint, entry);
      return undefined;
    }
    // The hot path of an abusive client: plain loops, no closures or spreads.
    const elapsed = now - entry.storedAt;
    const d = entry.decision;
    const results: RuleResult[] = new Array(d.results.length);
    for (let i = 0; i < results.length; i++) {
      const r = d.results[i]!;
      results[i] = {
        rule: r.rule,
        allowed: r.allowed,
        limit: r.limit,
        remaining: r.remaining,
        resetMs: r.resetMs > elapsed ? r.resetMs - elapsed : 0,
        retryAfterMs: r.allowed ? 0 : Math.max(1, r.retryAfterMs - elapsed),
        nextMs: r.nextMs > elapsed ? r.nextMs - elapsed : 0,
        source: "cache",
      };
      if (r.penalized) results[i]!.penalized = true;
    }
    return {
      allowed: false,
      unavailable: false,
      retryAfterMs: Math.max(1, d.retryAfterMs - elapsed),
      nowMs: d.nowMs + elapsed,
      results,
    };
  }

  /** Remembers a refused decision of `tenantId` until it could pass; ignores anything else. */
  remember(tenantId: string, fingerprint: string, decision: Decision, now: number): void {
    if (decision.allowed || decision.unavailable || decision.retryAfterMs <= 0) return;
    if (decision.results.some(givenBackSooner)) return;
    const old = this.entries.get(fingerprint);
    if (old) this.delete(fingerprint, old);
    this.entries.set(fingerprint, { decision, storedAt: now, expiresAt: now + decision.retryAfterMs, tenantId });
    let own = this.byTenant.get(tenantId);
    if (!own) this.byTenant.set(tenantId, (own = new Set()));
    own.add(fingerprint);
    while (this.entries.size > this.maxEntries) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.delete(oldest, entry);
    }
  }

  /**
   * A tenant's rules were (re)loaded; `rulesFingerprint` identifies them ("" when the tenant is
   * gone). Drops the tenant's refusals only when it differs from the last one seen.
   */
  rulesLoaded(tenantId: string, rulesFingerprint: string): void {
    const seen = this.rulesSeen.get(tenantId);
    if (seen === rulesFingerprint) return;
    if (rulesFingerprint === "") this.rulesSeen.delete(tenantId);
    else this.rulesSeen.set(tenantId, rulesFingerprint);
    // The first load of a tenant has nothing cached yet that predates it, unless the cache was
    // filled before the access cache reported (tests, a racing first request): drop to be safe.
    this.dropTenant(tenantId);
  }

  /** Drops every cached refusal of one tenant: only that tenant's entries are visited. */
  dropTenant(tenantId: string): void {
    const own = this.byTenant.get(tenantId);
    if (!own) return;
    for (const fingerprint of own) this.entries.delete(fingerprint);
    this.byTenant.delete(tenantId);
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(fingerprint: string, entry: Entry): void {
    this.entries.delete(fingerprint);
    const own = this.byTenant.get(entry.tenantId);
    if (!own) return;
    own.delete(fingerprint);
    if (own.size === 0) this.byTenant.delete(entry.tenantId);
  }
}

/** A refusing rule whose quota a give-back can return before its retry time (see the header). */
function givenBackSooner(r: RuleResult): boolean {
  return !r.allowed && !r.penalized && r.rule.chargeOn !== undefined && r.rule.mode === "enforce";
}

/**
 * What makes a refusal the same refusal: the counters and every rule's parameters. A rule change
 * therefore misses the cache by construction. Each key is length-prefixed: a key may hold any
 * character (an identifier is client-chosen), so a separator alone would let a crafted identifier
 * spell another request's fingerprint and have its refusal served to that request.
 */
export function refusalFingerprint(rules: LimiterRule[], keys: string[]): string {
  let fingerprint = "";
  for (let i = 0; i < rules.length; i++) fingerprint += keys[i]!.length + ":" + keys[i] + ruleSpec(rules[i]!).id + "|";
  return fingerprint;
}
