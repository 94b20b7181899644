/**
 * The per-instance copy of tenants, live keys, rules and gateway upstreams that enforcement and
 * the gateway read: no Postgres query on the request path.
 *
 * Contract
 * - `ready()` resolves once a first full load succeeded; until then it retries a load on each call
 *   and rejects while Postgres is down (a fresh instance cannot authenticate anyone).
 * - `tenantChanged(id)` reloads one tenant (called for every change notice, and by the admin API
 *   before it answers: lib/policy/changes/announceChange.ts) and rejects when that reload failed;
 *   `refreshAll()` reloads everything (periodically, and after the change subscription reconnects).
 * - When Postgres is down a reload fails and the last known data stays in force (logged once per
 *   outage). A slower, older load never overwrites a newer one: each tenant's data is stamped with
 *   the sequence number of the load that produced it.
 * - `tenantOfHost(host)` is the host table (lib/policy/identity/tenantHost.ts `hostLookupKey` makes
 *   the key): one Map lookup, whatever the number of hosts; `hasHosts()` lets the data plane skip
 *   even that while no tenant has a host. A host another tenant's newer load claims moves to it.
 * - `jwtVerifier(tenantId)`: the tenant's JWT verifier (lib/policy/identity/jwtVerifier.ts), made once
 *   per settings and kept across reloads that leave them unchanged, so its JWKS cache survives them.
 * - `rulesFor(tenantId, caller)`: the rules a caller is checked against, compiled at load (no
 *   merge on the request path): a key's own set (tenant, its tier, its overrides), or for a caller
 *   without a key (JWT, anonymous) the set of the tier it names, or the tenant's when it names none
 *   or a tier without rules; with the running grants of the key (keyGrants.ts: its own and its
 *   tier's) or of the JWT subject and its tier (callerGrants.ts). Unknown tenant: no rules. Admission asks it once per request
 *   (lib/dataplane/admission/admit.ts), and it answers the compiled arrays as cached (no copy per request).
 * - `liveKey(id)` is what authentication asks: the key unless it is unknown, revoked (not loaded)
 *   or expired. Expiry is compared with the clock on every call, so a key stops working at its
 *   instant on every instance without waiting for a reload.
 */
import { grantedRules } from "./keyGrants";
import { callerRules } from "./callerGrants";
import { isExpired } from "../keys/keyExpiry";
import type { AccessLoader, KeyAccess, TenantAccess } from "./accessLoader";
import type { CompiledRule } from "./effectiveRules";
import type { UpstreamTarget } from "../upstreams/upstreamSchema";
import { logOutage } from "../../config/plane";
import { createJwtVerifier, type JwtVerifier } from "../identity/jwtVerifier";
import type { JwksSourceOptions } from "../identity/jwksSource";

export interface AccessCacheEvents {
  onReload?: (kind: "tenant" | "full", outcome: "ok" | "error") => void;
  /**
   * Called after each reload of a tenant (every full refresh reloads them all) with its new data, or
   * null once it is gone; the data may well be unchanged (see rulesFingerprint.ts to tell).
   */
  onTenantReplaced?: (tenantId: string, tenant: TenantAccess | null) => void;
  /** The clock key expiry is checked against (epoch ms); Date.now by default, a fake one in tests. */
  now?: () => number;
  /** How JWT verifiers fetch their JWKS (tests: a fake fetch and clock). */
  jwks?: JwksSourceOptions;
}

export class AccessCache {
  private tenants = new Map<string, TenantAccess>();
  private keys = new Map<string, KeyAccess>();
  /** Host (lower case, no port) -> tenant id. */
  private hosts = new Map<string, string>();
  /** Each tenant's JWT verifier, with the settings (as JSON) it was made for. */
  private verifiers = new Map<string, { jwt: object; settings: string; verifier: JwtVerifier }>();
  /** Sequence of the newest load whose data each tenant holds. */
  private stamp = new Map<string, number>();
  private seq = 0;
  private loaded: Promise<void> | null = null;
  private failing = false;
  private timer: NodeJS.Timeout | null = null;
  private loadedOnce = false;

  constructor(
    private readonly loader: AccessLoader,
    private readonly events: AccessCacheEvents = {},
  ) {}

  ready(): Promise<void> {
    if (!this.loaded) {
      this.loaded = this.refreshAll().then(
        () => {
          this.loadedOnce = true;
        },
        (error: unknown) => {
          this.loaded = null; // the next request tries again
          throw error;
        },
      );
    }
    return this.loaded;
  }

  /** Whether ready() has resolved (it then always does): admission need not await it. */
  isReady(): boolean {
    return this.loadedOnce;
  }

  key(keyId: string): KeyAccess | undefined {
    return this.keys.get(keyId);
  }

  /** The key if a request may use it now: known, unrevoked and not expired. */
  liveKey(keyId: string): KeyAccess | undefined {
    const key = this.keys.get(keyId);
    if (!key || isExpired(key.expiresAtMs, (this.events.now ?? Date.now)())) return undefined;
    return key;
  }

  tenant(tenantId: string): TenantAccess | undefined {
    return this.tenants.get(tenantId);
  }

  /**
   * The rules of a caller of the tenant: its key's, else its tier's (a JWT's tierClaim), else the
   * tenant's; with the running grants of the key (and its tier), or of the JWT subject and its tier.
   */
  rulesFor(tenantId: string, caller: { key?: KeyAccess; tier?: string; subject?: string }): CompiledRule[] {
    if (caller.key) {
      const grants = caller.key.grants;
      return grants ? grantedRules(grants, (this.events.now ?? Date.now)()) : caller.key.rules;
    }
    const tenant = this.tenants.get(tenantId);
    if (!tenant) return [];
    const base = (caller.tier !== undefined ? tenant.tiers?.get(caller.tier)?.rules : undefined) ?? tenant.rules;
    if (!tenant.callerGrants) return base;
    return callerRules(tenant.callerGrants, base, caller.subject, caller.tier, (this.events.now ?? Date.now)());
  }

  /** The tenant's gateway upstream, or undefined when it has none (or is unknown). */
  upstreamFor(tenantId: string): UpstreamTarget | undefined {
    return this.tenants.get(tenantId)?.upstream;
  }

  /** The tenant whose host `hostKey` is (hostLookupKey's form), or undefined. */
  tenantOfHost(hostKey: string): string | undefined {
    return this.hosts.get(hostKey);
  }

  /** Whether any tenant has a host (else no request needs a host lookup). */
  hasHosts(): boolean {
    return this.hosts.size > 0;
  }

  /** The tenant's JWT verifier, or undefined when it accepts no JWT (or is unknown). */
  jwtVerifier(tenantId: string): JwtVerifier | undefined {
    const jwt = this.tenants.get(tenantId)?.identity?.jwt;
    if (!jwt) return undefined;
    const known = this.verifiers.get(tenantId);
    // The same settings object (no reload since): no serialisation on the request path.
    if (known && known.jwt === jwt) return known.verifier;
    const settings = JSON.stringify(jwt);
    if (known && known.settings === settings) {
      known.jwt = jwt; // reloaded unchanged: the verifier (and its JWKS cache) stays
      return known.verifier;
    }
    const verifier = createJwtVerifier(jwt, this.events.jwks);
    this.verifiers.set(tenantId, { jwt, settings, verifier });
    return verifier;
  }

  tenantList(): TenantAccess[] {
    return [...this.tenants.values()];
  }

  async refreshAll(): Promise<void> {
    const seq = ++this.seq;
    try {
      const all = await this.loader.loadAll();
      for (const [id, tenant] of all) this.apply(id, tenant, seq);
      for (const id of [...this.tenants.keys()]) if (!all.has(id)) this.apply(id, null, seq);
      this.succeeded("full");
    } catch (error) {
      this.failed("full", error);
      throw error;
    }
  }

  async tenantChanged(tenantId: string): Promise<void> {
    const seq = ++this.seq;
    try {
      this.apply(tenantId, await this.loader.loadTenant(tenantId), seq);
      this.succeeded("tenant");
    } catch (error) {
      this.failed("tenant", error);
      throw error;
    }
  }

  /** Full refresh every `intervalMs` (the safety net for lost change notices). */
  startPeriodicRefresh(intervalMs: number): void {
    this.stopPeriodicRefresh();
    this.timer = setInterval(() => void this.refreshAll().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  stopPeriodicRefresh(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private apply(tenantId: string, tenant: TenantAccess | null, seq: number): void {
    if ((this.stamp.get(tenantId) ?? 0) > seq) return; // a newer load already answered
    this.stamp.set(tenantId, seq);
    const old = this.tenants.get(tenantId);
    if (old) for (const keyId of old.keys.keys()) this.keys.delete(keyId);
    for (const host of old?.identity?.hosts ?? []) if (this.hosts.get(host) === tenantId) this.hosts.delete(host);
    if (tenant) {
      this.tenants.set(tenantId, tenant);
      for (const [keyId, key] of tenant.keys) this.keys.set(keyId, key);
      for (const host of tenant.identity?.hosts ?? []) this.hosts.set(host, tenantId);
      if (!tenant.identity?.jwt) this.verifiers.delete(tenantId);
    } else {
      this.tenants.delete(tenantId);
      this.verifiers.delete(tenantId);
    }
    this.events.onTenantReplaced?.(tenantId, tenant);
  }

  private succeeded(kind: "tenant" | "full"): void {
    this.events.onReload?.(kind, "ok");
    if (this.failing) logOutage("[sluice] rule store reachable again; rules reloaded");
    this.failing = false;
  }

  private failed(kind: "tenant" | "full", error: unknown): void {
    this.events.onReload?.(kind, "error");
    // One line: Prisma's messages span several, which log collectors would split into entries.
    if (!this.failing)
      logOutage(
        `[sluice] rule store unreachable, serving the rules last loaded: ${(error as Error).message.replace(/\s+/g, " ").trim()}`,
      );
    this.failing = true;
  }
}
