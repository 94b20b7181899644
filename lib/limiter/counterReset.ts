/**
 * Resetting counters (DELETE /api/admin/keys/{keyId}/counters and
 * DELETE /api/admin/tenants/{tenantId}/rules/{rule}/counters?identifier=...): which Redis keys hold
 * what was charged to a key, or to one identifier of an `identifier` rule. Pure: names only, from
 * the one key builder (lib/limiter/keys.ts); the admin service deletes them and announces the
 * tenant so every instance drops its cached refusals.
 *
 * - Charged to a key: the counters of its effective rules with scope `key` (tenant rules and its
 *   overrides). `tenant`, `ip` and `identifier` counters are shared with other keys or callers and
 *   are not the key's to reset.
 * - Names come from `counterKey` for every algorithm (sliding_log keeps a key per rule, the others
 *   share one key per subject), deduplicated, so state left from an earlier algorithm cannot come
 *   back either.
 * - Penalties (blockMs) live in the subject key (lib/limiter/keys.ts `penaltyKey`), so deleting it
 *   lifts them too, sliding_log rules' included.
 * - With one key per subject, an identifier's state under EVERY identifier rule of the tenant lives
 *   in one key: resetting one identifier of one rule resets that identifier under all of them
 *   (documented in docs/rules.md; clearing one field would need a script of the limiter's own).
 */
import { counterKey, penaltyKey } from "./keys";
import { ALGORITHMS, type LimiterRule, type Subject } from "./types";

function everyAlgorithm(prefix: string, rule: LimiterRule, subject: Subject): string[] {
  const names = ALGORITHMS.map((algorithm) => counterKey(prefix, { ...rule, algorithm }, subject));
  const penalties = penaltyKey(prefix, rule, subject);
  return names.includes(penalties) ? names : [...names, penalties];
}

export function keyCounterKeys(prefix: string, rules: LimiterRule[], tenantId: string, keyId: string): string[] {
  const names = new Set<string>();
  for (const rule of rules) {
    if (rule.scope !== "key") continue;
    for (const name of everyAlgorithm(prefix, rule, { tenantId, keyId })) names.add(name);
  }
  return [...names];
}

export function identifierCounterKeys(
  prefix: string,
  rule: LimiterRule,
  tenantId: string,
  identifier: string,
): string[] {
  if (rule.scope !== "identifier") throw new Error(`rule "${rule.name}" has scope ${rule.scope}, not identifier`);
  return everyAlgorithm(prefix, rule, { tenantId, identifier });
}
