/**
 * Remaining quota of keys, read with the limiter's `peek` (charges nothing, writes nothing).
 *
 * Contract
 * - Key view: every effective rule of the key, in enforcement's order. `key` and `tenant` scope
 *   rules are peeked for the key (a `tenant` rule's counter is the one all keys of the tenant
 *   share); `ip` and `identifier` rules only when the caller names an ip or identifier, otherwise
 *   they are listed with `remaining`, `resetMs` and `retryAfterMs` null. All of a key's rules are
 *   read in ONE peek, so their figures are from the same instant.
 * - Tenant view: each live key's `key`-scope rules (one peek per key, all concurrent: the limiter
 *   batches them into few script calls), and the tenant's `tenant`-scope rules once.
 * - `retryAfterMs`: the peek's own (lib/limiter/decide.ts): 0 while a request of the rule's cost
 *   would pass this rule now, else exactly until it would (one window when the cost exceeds the
 *   rule's capacity, as decide advises).
 * - Redis down or slower than its timeout: AppError `limiter_unavailable` (503). No figure is
 *   ever made up, and a partial answer is never given.
 */
import type { CompiledRule } from "../../policy/compiled/effectiveRules";
import { AppError } from "../../http/errors";
import type { Limiter } from "../../limiter/decide";
import { capacityOf, LimiterUnavailableError, type RuleResult, type Subject } from "../../limiter/types";
import { sourceOf } from "../../policy/compiled/keyRules";
import type { KeyQuota, RuleQuota, TenantQuota } from "./quotaAnswers";

export interface Probe {
  ip?: string;
  identifier?: string;
}

function quotaOf(compiled: CompiledRule, result: RuleResult | undefined): RuleQuota {
  const rule = compiled.rule;
  return {
    name: rule.name,
    source: sourceOf(compiled),
    scope: rule.scope,
    algorithm: rule.algorithm,
    mode: rule.mode,
    // The limiter's: a running grant raises them (lib/policy/compiled/keyGrants.ts).
    limit: compiled.limiter.limit,
    capacity: capacityOf(compiled.limiter),
    remaining: result ? result.remaining : null,
    resetMs: result ? result.resetMs : null,
    retryAfterMs: result ? result.retryAfterMs : null,
  };
}

function readable(rule: CompiledRule, probe: Probe): boolean {
  switch (rule.rule.scope) {
    case "key":
    case "tenant":
      return true;
    case "ip":
      return probe.ip !== undefined;
    case "identifier":
      return probe.identifier !== undefined;
    case "header":
    case "query":
    case "descriptor":
      // Per attribute (or Envoy descriptor) value: no one value is "the key's", so these are listed unread.
      return false;
  }
}

const unavailable = () =>
  new AppError(
    "limiter_unavailable",
    "Remaining quota cannot be read right now: Redis is unavailable or too slow. Retry shortly.",
    { headers: { "Retry-After": "1" } },
  );

/** Peeks `rules` for `subject`; the results in the same order. Nothing to read: no Redis call. */
async function peekAll(
  limiter: Limiter,
  rules: CompiledRule[],
  subject: Subject,
): Promise<{ nowMs: number | null; results: RuleResult[] }> {
  if (rules.length === 0) return { nowMs: null, results: [] };
  try {
    const decision = await limiter.peek(
      rules.map((r) => r.limiter),
      subject,
    );
    return { nowMs: decision.nowMs, results: decision.results };
  } catch (error) {
    if (error instanceof LimiterUnavailableError) throw unavailable();
    throw error;
  }
}

async function peekRules(
  limiter: Limiter,
  rules: CompiledRule[],
  subject: Subject,
  isRead: (rule: CompiledRule) => boolean,
): Promise<{ nowMs: number | null; rules: RuleQuota[] }> {
  const read = rules.filter(isRead);
  const peeked = await peekAll(limiter, read, subject);
  const resultOf = new Map(read.map((rule, i) => [rule, peeked.results[i]] as const));
  return { nowMs: peeked.nowMs, rules: rules.map((rule) => quotaOf(rule, resultOf.get(rule))) };
}

export async function keyQuota(
  limiter: Limiter,
  key: { tenantId: string; keyId: string; effective: CompiledRule[] },
  probe: Probe,
  clock: () => number = Date.now,
): Promise<KeyQuota> {
  const subject: Subject = { tenantId: key.tenantId, keyId: key.keyId, ip: probe.ip, identifier: probe.identifier };
  const peeked = await peekRules(limiter, key.effective, subject, (rule) => readable(rule, probe));
  return { nowMs: peeked.nowMs ?? clock(), rules: peeked.rules };
}

export async function tenantQuota(
  limiter: Limiter,
  tenant: {
    tenantId: string;
    tenantRules: CompiledRule[];
    keys: { id: string; name: string; effective: CompiledRule[] }[];
    truncated: boolean;
  },
  clock: () => number = Date.now,
): Promise<TenantQuota> {
  const isKeyScope = (rule: CompiledRule) => rule.rule.scope === "key";
  const isTenantScope = (rule: CompiledRule) => rule.rule.scope === "tenant";
  const [shared, ...perKey] = await Promise.all([
    peekRules(limiter, tenant.tenantRules.filter(isTenantScope), { tenantId: tenant.tenantId }, () => true),
    ...tenant.keys.map((key) =>
      peekRules(limiter, key.effective.filter(isKeyScope), { tenantId: tenant.tenantId, keyId: key.id }, () => true),
    ),
  ]);
  const times = [shared!, ...perKey].map((p) => p.nowMs).filter((t): t is number => t !== null);
  return {
    nowMs: times.length > 0 ? Math.max(...times) : clock(),
    tenantRules: shared!.rules,
    keys: tenant.keys.map((key, i) => ({ keyId: key.id, keyName: key.name, rules: perKey[i]!.rules })),
    truncated: tenant.truncated,
  };
}
