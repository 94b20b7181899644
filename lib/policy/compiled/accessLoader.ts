/**
 * Reads what enforcement needs from Postgres: tenants, their live (unrevoked) keys, rules, tiers
 * (each tier's rule set compiled and merged with the tenant's here, once per load, so a caller in
 * a tier costs one Map lookup: lib/policy/tiers) and counter refs, gateway upstreams, identity settings (hosts and callers) and access lists (compiled here, once per load, so a request
 * only asks the matcher: lib/policy/access/accessMatcher.ts), either for every tenant (full refresh) or for one (after a change notice).
 */
import { getDb } from "../../db/client";
import { refToken } from "../rules/ruleRefs";
import { fromColumns } from "../rules/storedRule";
import type { UpstreamTarget } from "../upstreams/upstreamSchema";
import { compileAccessLists, type AccessMatcher } from "../access/accessMatcher";
import { compileOverrides, type OverrideMatcher } from "../overrides/overrideMatcher";
import { overrideFromRow } from "../overrides/overrideStore";
import type { IdentifierOverride } from "../overrides/overrideSchema";
import { compileRule, compileTierRule, layerRules, type CompiledRule } from "./effectiveRules";
import { withGrants, type ActiveGrant, type KeyGrants } from "./keyGrants";
import { addCallerGrant, callerGrantIndex, tierGrants, type CallerGrantIndex } from "./callerGrants";
import { anchorRules } from "./billingAnchor";
import type { TenantIdentity } from "../identity/identitySchema";
import { identityFromRows } from "../identity/identityStore";

export interface KeyAccess {
  id: string;
  tenantId: string;
  name: string;
  secretHash: string;
  /** Epoch ms from which the key is refused (401), or null; checked per request (AccessCache.liveKey). */
  expiresAtMs: number | null;
  /** The tier (plan) the key is in (lib/policy/tiers); absent: none. */
  tier?: string;
  /** The key's own override rules. */
  overrides: CompiledRule[];
  /** Tenant rules, then its tier's, then its own overrides (layerRules): what its requests are checked against. */
  rules: CompiledRule[];
  /**
   * Its unexpired grants (keyGrants.ts), when it has any: then `rules` is without them and
   * AccessCache.rulesFor answers `grantedRules` (the limits raised while each grant lasts).
   */
  grants?: KeyGrants;
}

export interface TenantAccess {
  id: string;
  name: string;
  rules: CompiledRule[];
  /**
   * Each tier that has rules: the tenant's rules with the tier's applied (layerRules), by tier name;
   * absent: none. A tier not in it leaves the tenant's rules as they are (AccessCache.rulesFor).
   */
  tiers?: Map<string, { own: CompiledRule[]; rules: CompiledRule[] }>;
  keys: Map<string, KeyAccess>;
  /** Where the gateway forwards this tenant's admitted requests (lib/dataplane/gateway), if anywhere. */
  upstream?: UpstreamTarget;
  /** The tenant's allow and deny lists, compiled (lib/dataplane/admission/admit.ts asks them first); absent: none. */
  accessLists?: AccessMatcher;
  /** Per-identifier limits of its `identifier` rules, by rule name (lib/policy/overrides); absent: none. */
  identifierOverrides?: Map<string, OverrideMatcher>;
  /**
   * Its hosts and callers (lib/policy/identity); absent: the defaults (no host, Sluice keys only).
   * The access cache keeps a host table and one JWT verifier per tenant from it.
   */
  identity?: TenantIdentity;
  /**
   * Its running grants for JWT subjects and tiers (callerGrants.ts); absent: none. A tier's are
   * also in each of its keys' `grants`; AccessCache.rulesFor applies them to JWT callers.
   */
  callerGrants?: CallerGrantIndex;
}

export type AccessLoader = {
  /** Every tenant. */
  loadAll(): Promise<Map<string, TenantAccess>>;
  /** One tenant, or null when it no longer exists. */
  loadTenant(tenantId: string): Promise<TenantAccess | null>;
};

async function load(tenantIds: string[] | null): Promise<Map<string, TenantAccess>> {
  const db = getDb();
  const where = tenantIds ? { id: { in: tenantIds } } : {};
  const byTenant = tenantIds ? { tenantId: { in: tenantIds } } : {};
  const loadedAtMs = Date.now();
  const [tenants, keys, rules, refs, upstreams, accessLists, overrideRows, identities, hosts, grantRows, callerRows] =
    await Promise.all([
      db.tenant.findMany({ where, select: { id: true, name: true } }),
      db.apiKey.findMany({
        where: { ...byTenant, revokedAt: null },
        select: {
          id: true,
          tenantId: true,
          name: true,
          secretHash: true,
          expiresAt: true,
          tier: true,
          billingDay: true,
        },
      }),
      db.rule.findMany({ where: byTenant, orderBy: [{ position: "asc" }] }),
      db.ruleRef.findMany({ where: byTenant }),
      db.upstream.findMany({
        where: byTenant,
        select: { tenantId: true, url: true, timeoutMs: true, signingSecret: true },
      }),
      db.accessLists.findMany({ where: byTenant, select: { tenantId: true, allow: true, deny: true } }),
      db.identifierOverride.findMany({ where: byTenant, orderBy: [{ position: "asc" }] }),
      db.tenantIdentity.findMany({
        where: byTenant,
        select: { tenantId: true, apiKeys: true, anonymous: true, jwt: true },
      }),
      db.tenantHost.findMany({ where: byTenant, select: { tenantId: true, host: true }, orderBy: { host: "asc" } }),
      db.keyGrant.findMany({
        where: { ...byTenant, until: { gt: new Date(loadedAtMs) } },
        select: { id: true, keyId: true, rule: true, units: true, until: true },
      }),
      db.callerGrant.findMany({
        where: { ...byTenant, until: { gt: new Date(loadedAtMs) } },
        select: { id: true, tenantId: true, subject: true, tier: true, rule: true, units: true, until: true },
      }),
    ]);
  const callerGrantsOf = new Map<string, CallerGrantIndex>();
  for (const g of callerRows) {
    let index = callerGrantsOf.get(g.tenantId);
    if (!index) callerGrantsOf.set(g.tenantId, (index = callerGrantIndex()));
    addCallerGrant(index, g.subject !== null ? { subject: g.subject } : { tier: g.tier! }, {
      id: g.id,
      ...(g.rule !== null ? { rule: g.rule } : {}),
      units: g.units,
      untilMs: g.until.getTime(),
    });
  }
  const grantsOf = new Map<string, ActiveGrant[]>();
  for (const g of grantRows) {
    let list = grantsOf.get(g.keyId);
    if (!list) grantsOf.set(g.keyId, (list = []));
    list.push({ id: g.id, ...(g.rule !== null ? { rule: g.rule } : {}), units: g.units, untilMs: g.until.getTime() });
  }
  const hostsOf = new Map<string, string[]>();
  for (const h of hosts) {
    let list = hostsOf.get(h.tenantId);
    if (!list) hostsOf.set(h.tenantId, (list = []));
    list.push(h.host);
  }
  const identityRowOf = new Map(identities.map((i) => [i.tenantId, i]));
  const accessOf = new Map(accessLists.map((a) => [a.tenantId, compileAccessLists(a)]));
  const upstreamOf = new Map(
    upstreams.map((u): [string, UpstreamTarget] => [
      u.tenantId,
      { url: u.url, timeoutMs: u.timeoutMs, ...(u.signingSecret ? { signingSecret: u.signingSecret } : {}) },
    ]),
  );
  const refOf = new Map(refs.map((r) => [`${r.tenantId}/${r.name}`, refToken(r.ref)]));
  const compiled = (row: (typeof rules)[number]): CompiledRule => {
    const ref = refOf.get(`${row.tenantId}/${row.name}`);
    // Written in the same transaction as the rule; a rule without one is a corrupt store.
    if (!ref) throw new Error(`rule ${row.name} of tenant ${row.tenantId} has no counter ref`);
    return row.tier !== null
      ? compileTierRule(fromColumns(row), ref, row.tier)
      : compileRule(fromColumns(row), ref, row.keyId !== null);
  };
  const tenantRules = new Map<string, CompiledRule[]>();
  const keyRules = new Map<string, CompiledRule[]>();
  /** By tenant, then tier name. */
  const tierRules = new Map<string, Map<string, CompiledRule[]>>();
  for (const row of rules) {
    let list: CompiledRule[] | undefined;
    if (row.tier !== null) {
      let tiers = tierRules.get(row.tenantId);
      if (!tiers) tierRules.set(row.tenantId, (tiers = new Map()));
      list = tiers.get(row.tier);
      if (!list) tiers.set(row.tier, (list = []));
    } else {
      const bucket = row.keyId ? keyRules : tenantRules;
      const owner = row.keyId ?? row.tenantId;
      list = bucket.get(owner);
      if (!list) bucket.set(owner, (list = []));
    }
    list.push(compiled(row));
  }
  const overridesOf = new Map<string, IdentifierOverride[]>();
  for (const row of overrideRows) {
    const id = `${row.tenantId}/${row.rule}`;
    let list = overridesOf.get(id);
    if (!list) overridesOf.set(id, (list = []));
    list.push(overrideFromRow(row));
  }
  const out = new Map<string, TenantAccess>();
  for (const t of tenants) {
    const own = tenantRules.get(t.id) ?? [];
    const tiers = tierRules.get(t.id);
    out.set(t.id, {
      id: t.id,
      name: t.name,
      rules: own,
      ...(tiers
        ? { tiers: new Map([...tiers].map(([name, list]) => [name, { own: list, rules: layerRules(own, list) }])) }
        : {}),
      keys: new Map(),
      upstream: upstreamOf.get(t.id),
      accessLists: accessOf.get(t.id),
      identifierOverrides: matchersOf(t.id, own, overridesOf),
      ...(identityRowOf.has(t.id) || hostsOf.has(t.id)
        ? { identity: identityFromRows(identityRowOf.get(t.id) ?? null, hostsOf.get(t.id) ?? []) }
        : {}),
      ...(callerGrantsOf.has(t.id) ? { callerGrants: callerGrantsOf.get(t.id)! } : {}),
    });
  }
  for (const k of keys) {
    const tenant = out.get(k.tenantId);
    if (!tenant) continue;
    const overrides = keyRules.get(k.id) ?? [];
    // Its own grants, and its tier's (each key of the tier gets the tier's units: callerGrants.ts).
    const ofTier = tierGrants(tenant.callerGrants, k.tier ?? undefined);
    const own = grantsOf.get(k.id);
    const grants = ofTier.length === 0 ? own : [...(own ?? []), ...ofTier];
    tenant.keys.set(k.id, {
      id: k.id,
      tenantId: k.tenantId,
      name: k.name,
      secretHash: k.secretHash,
      expiresAtMs: k.expiresAt?.getTime() ?? null,
      ...(k.tier !== null ? { tier: k.tier } : {}),
      overrides,
      // The tier's merged set is shared: one merge per tier per load, then only the key's own;
      // its month rules of scope key anchored at its billing day (billingAnchor.ts).
      rules: anchorRules(
        layerRules((k.tier !== null ? tenant.tiers?.get(k.tier)?.rules : undefined) ?? tenant.rules, [], overrides),
        k.billingDay,
      ),
    });
    if (grants) {
      const key = tenant.keys.get(k.id)!;
      key.grants = withGrants(key.rules, grants, loadedAtMs);
    }
  }
  return out;
}

/** Each identifier rule's overrides, compiled once per load (lookups never scan: overrideMatcher.ts). */
function matchersOf(
  tenantId: string,
  rules: CompiledRule[],
  overridesOf: Map<string, IdentifierOverride[]>,
): Map<string, OverrideMatcher> | undefined {
  let out: Map<string, OverrideMatcher> | undefined;
  for (const r of rules) {
    const list = r.rule.scope === "identifier" ? overridesOf.get(`${tenantId}/${r.rule.name}`) : undefined;
    if (list && list.length > 0) (out ??= new Map()).set(r.rule.name, compileOverrides(r.limiter, list));
  }
  return out;
}

export const prismaAccessLoader: AccessLoader = {
  loadAll: () => load(null),
  loadTenant: async (tenantId) => (await load([tenantId])).get(tenantId) ?? null,
};
