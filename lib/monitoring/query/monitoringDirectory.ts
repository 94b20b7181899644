/**
 * Names for what the monitoring data identifies by id: tenants, API keys and rule refs.
 *
 * Monitoring records rule REFS (lib/policy/rules/ruleRefs.ts): short, and one-to-one with a rule name for
 * the life of the tenant (a name keeps its ref forever, refs are never reused), so a ref names the
 * same rule in every minute of the data, and a renamed rule is a new series as it has new counters.
 * Names come from this instance's access cache (current tenants, live keys, current rules, no
 * Postgres query); refs the cache does not know (deleted rules) are looked up in the stored refs,
 * and stay unnamed (`name: null`) if that fails. Revoked keys and deleted tenants have no name.
 * The pseudo-tenant `-anon` (requests without a valid key) has its own fixed names.
 * `keyTenant` finds the tenant of an API key: from the cache for live keys, else from the store
 * (revoked keys keep their recent decisions for 24 h); store errors propagate (503 upstream).
 */
import { ANONYMOUS_TENANT, anonymousRule } from "../../policy/compiled/anonymousRule";
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { TenantAccess } from "../../policy/compiled/accessLoader";
import type { LimiterRule, RuleMode } from "../../limiter/types";
import type { RuleLabel } from "./monitoringAnswers";

export interface MonitoringDirectory {
  tenantName(tenantId: string): string | null;
  keyName(tenantId: string, keyId: string): string | null;
  describeRules(tenantId: string, refs: string[]): Promise<Map<string, RuleLabel>>;
  /** The ref of a rule name of the tenant (current or deleted), or null if it never existed. */
  refOf(tenantId: string, ruleName: string): Promise<string | null>;
  /** The tenant of an API key (live or revoked), or null if no such key exists. */
  keyTenant(keyId: string): Promise<string | null>;
}

/** Every name → ref the tenant ever had (from the RuleRef table). */
export type StoredRuleRefs = (tenantId: string) => Promise<{ name: string; ref: string }[]>;

/** The tenant of a stored API key, revoked or not; null when there is none. */
export type StoredKeyTenant = (keyId: string) => Promise<string | null>;

export const ANONYMOUS_TENANT_NAME = "unauthenticated requests";

function currentRules(tenant: TenantAccess | undefined): Map<string, { name: string; mode: RuleMode }> {
  const out = new Map<string, { name: string; mode: RuleMode }>();
  if (!tenant) return out;
  const add = (r: { limiter: { ref: string }; rule: { name: string; mode: RuleMode } }) => {
    if (!out.has(r.limiter.ref)) out.set(r.limiter.ref, { name: r.rule.name, mode: r.rule.mode });
  };
  tenant.rules.forEach(add);
  for (const key of tenant.keys.values()) key.overrides.forEach(add);
  return out;
}

export function accessDirectory(
  access: AccessCache,
  storedRefs: StoredRuleRefs,
  storedKeyTenant: StoredKeyTenant,
): MonitoringDirectory {
  const anonymous = anonymousRule(1);
  const known = (tenantId: string) =>
    tenantId === ANONYMOUS_TENANT
      ? new Map([[anonymous.ref, { name: anonymous.name, mode: anonymous.mode }]])
      : currentRules(access.tenant(tenantId));
  const stored = async (tenantId: string) => {
    if (tenantId === ANONYMOUS_TENANT) return [];
    try {
      return await storedRefs(tenantId);
    } catch {
      return [];
    }
  };
  return {
    tenantName: (tenantId) =>
      tenantId === ANONYMOUS_TENANT ? ANONYMOUS_TENANT_NAME : (access.tenant(tenantId)?.name ?? null),
    keyName: (tenantId, keyId) => access.tenant(tenantId)?.keys.get(keyId)?.name ?? null,
    async describeRules(tenantId, refs) {
      const current = known(tenantId);
      const out = new Map<string, RuleLabel>();
      for (const ref of refs) {
        const rule = current.get(ref);
        out.set(ref, { ref, name: rule?.name ?? null, mode: rule?.mode ?? null });
      }
      if ([...out.values()].some((label) => label.name === null)) {
        for (const { name, ref } of await stored(tenantId)) {
          const label = out.get(ref);
          if (label && label.name === null) label.name = name;
        }
      }
      return out;
    },
    async refOf(tenantId, ruleName) {
      for (const [ref, rule] of known(tenantId)) if (rule.name === ruleName) return ref;
      return (await stored(tenantId)).find((r) => r.name === ruleName)?.ref ?? null;
    },
    async keyTenant(keyId) {
      return access.key(keyId)?.tenantId ?? (await storedKeyTenant(keyId));
    },
  };
}

/**
 * The rule a ref names in force now, as the limiter takes it (tenant rules and key overrides; the
 * anonymous rule of `-anon` with this process's limit); null when no such rule exists any more.
 * `keyId` (a key-scope subject): the rule among that key's EFFECTIVE rules, the tenant's with its
 * overrides applied by enforcement's own merge (KeyAccess.rules, lib/policy/compiled/effectiveRules.ts).
 * An override keeps its tenant rule's name, so its ref and counter: without the key, the tenant
 * rule it replaced would be peeked, with the wrong limit (issue 31, point 1).
 */
export function liveRuleOf(
  access: AccessCache,
  anonLimitPerMinute: number,
): (tenantId: string, ref: string, keyId?: string) => LimiterRule | null {
  return (tenantId, ref, keyId) => {
    if (tenantId === ANONYMOUS_TENANT) return ref === "anon" ? anonymousRule(anonLimitPerMinute) : null;
    const tenant = access.tenant(tenantId);
    if (!tenant) return null;
    const key = keyId === undefined ? undefined : tenant.keys.get(keyId);
    const effective = key?.rules.find((r) => r.limiter.ref === ref);
    if (effective) return effective.limiter;
    const found = tenant.rules.find((r) => r.limiter.ref === ref);
    if (found) return found.limiter;
    for (const other of tenant.keys.values()) {
      const override = other.overrides.find((r) => r.limiter.ref === ref);
      if (override) return override.limiter;
    }
    return null;
  };
}

/** Labels of rules of several tenants, one `describeRules` per tenant; unknown pairs get an unnamed label. */
export async function labelRules(
  directory: MonitoringDirectory,
  rules: [tenantId: string, ref: string][],
): Promise<(tenantId: string, ref: string) => RuleLabel> {
  const byTenant = new Map<string, Set<string>>();
  for (const [tenantId, ref] of rules) {
    let refs = byTenant.get(tenantId);
    if (!refs) byTenant.set(tenantId, (refs = new Set()));
    refs.add(ref);
  }
  const labels = new Map<string, Map<string, RuleLabel>>();
  await Promise.all(
    [...byTenant].map(async ([tenantId, refs]) =>
      labels.set(tenantId, await directory.describeRules(tenantId, [...refs])),
    ),
  );
  return (tenantId, ref) => labels.get(tenantId)?.get(ref) ?? { ref, name: null, mode: null };
}
