/**
 * The quota views of the admin API: load the rules from the store, then peek them
 * (lib/control/admin/remainingQuota.ts).
 * - A revoked key has no quota to show: AppError `conflict` (409), saying it is revoked. (Its
 *   counters may still exist in Redis until they expire, but no request is checked against them.)
 * - A tenant's view covers its live keys, oldest first, at most MAX_QUOTA_KEYS (`truncated` beyond).
 */
import { loadKeyRules, loadLiveKeyRules } from "../../policy/compiled/keyRules";
import { AppError } from "../../http/errors";
import type { Limiter } from "../../limiter/decide";
import { keyQuota, tenantQuota, type Probe } from "./remainingQuota";
import type { KeyQuota, TenantQuota } from "./quotaAnswers";

export const MAX_QUOTA_KEYS = 200;

export async function quotaOfKey(limiter: Limiter, keyId: string, probe: Probe): Promise<KeyQuota> {
  const loaded = await loadKeyRules(keyId);
  if (loaded.key.revokedAt)
    throw new AppError(
      "conflict",
      `API key ${keyId} was revoked at ${loaded.key.revokedAt}; a revoked key has no quota.`,
    );
  return keyQuota(limiter, { tenantId: loaded.key.tenantId, keyId, effective: loaded.effective }, probe);
}

export async function quotaOfTenant(
  limiter: Limiter,
  tenantId: string,
  maxKeys = MAX_QUOTA_KEYS,
): Promise<TenantQuota> {
  return tenantQuota(limiter, await loadLiveKeyRules(tenantId, maxKeys));
}
