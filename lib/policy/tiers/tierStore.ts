/**
 * A tenant's tiers (plans, CONTRACT.md "Tiers"): named sets of override rules, stored as rules with
 * their `tier` set (lib/policy/rules/ruleStore.ts owner `tier`), and named by keys (`ApiKey.tier`).
 *
 * - `listTiers`: every tier that has rules or is named by a live (unrevoked) key, by name, each
 *   with its rules and how many live keys are in it. A tier that neither has rules nor is named by a
 *   key does not exist: there is nothing else to a tier.
 * - `deleteTierRules`: removes all of a tier's rules in one transaction, audited as `tier.delete`
 *   (revertible: the revert puts the list back). Keys that name the tier keep naming it, and have
 *   the tenant's rules (plus their own) until the tier has rules again. Deleting a tier without
 *   rules changes nothing and records nothing.
 * GET and PUT of one tier's list are ruleStore's (`getRules` / `replaceRules` with a tier owner).
 * Unknown tenant: AppError `not_found`. Callers announce the tenant after the commit.
 */
import { getDb } from "../../db/client";
import { AppError } from "../../http/errors";
import type { Actor } from "../audit/auditLog";
import { fromColumns } from "../rules/storedRule";
import { replaceRulesIn } from "../rules/ruleStore";
import type { TierView } from "./tierAnswers";

export async function listTiers(tenantId: string): Promise<TierView[]> {
  const db = getDb();
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
  const [rows, keys] = await Promise.all([
    db.rule.findMany({ where: { tenantId, tier: { not: null } }, orderBy: [{ position: "asc" }] }),
    db.apiKey.groupBy({ by: ["tier"], where: { tenantId, revokedAt: null, tier: { not: null } }, _count: true }),
  ]);
  const tiers = new Map<string, TierView>();
  const tierOf = (name: string) => {
    let view = tiers.get(name);
    if (!view) tiers.set(name, (view = { name, rules: [], keys: 0 }));
    return view;
  };
  for (const row of rows) tierOf(row.tier!).rules.push(fromColumns(row));
  for (const group of keys) tierOf(group.tier!).keys = group._count;
  return [...tiers.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** DELETE .../tiers/{tier}/rules: `changed` false when the tier had no rules. */
export async function deleteTierRules(
  actor: Actor,
  tenantId: string,
  tier: string,
): Promise<{ tenantId: string; changed: boolean }> {
  return getDb().$transaction(async (tx) => {
    const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
    if (!tenant) throw new AppError("not_found", `No tenant with id ${JSON.stringify(tenantId)}.`);
    const held = await tx.rule.count({ where: { tenantId, tier } });
    if (held === 0) return { tenantId, changed: false };
    await replaceRulesIn(tx, actor, { kind: "tier", tenantId, tier }, [], { action: "tier.delete" });
    return { tenantId, changed: true };
  });
}
