/**
 * Counter refs: the short Redis identity of a rule name within a tenant (lib/limiter/keys.ts).
 *
 * - A name keeps its ref forever, so editing a rule (its limit, window, match) keeps its counters,
 *   and a key override shares the counters of the tenant rule it replaces (same name, same ref).
 * - Refs are handed out from the tenant's `nextRuleRef` and never reused, so a new rule never
 *   inherits the counters of a deleted one.
 * - Written as base36 in keys: `1`, `2`, ... `z`, `10`: one or two characters for years of edits.
 * `ensureRuleRefs` must run inside the transaction that holds the tenant row lock (see ruleStore.ts);
 * `listRuleRefs` reads every ref a tenant ever had (monitoring names its recorded refs with it).
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";

export const refToken = (ref: number): string => ref.toString(36);

export async function ensureRuleRefs(tx: Prisma.TransactionClient, tenantId: string, names: string[]): Promise<void> {
  const wanted = [...new Set(names)];
  if (wanted.length === 0) return;
  const existing = await tx.ruleRef.findMany({ where: { tenantId, name: { in: wanted } }, select: { name: true } });
  const known = new Set(existing.map((r) => r.name));
  const missing = wanted.filter((name) => !known.has(name));
  if (missing.length === 0) return;
  const tenant = await tx.tenant.update({
    where: { id: tenantId },
    data: { nextRuleRef: { increment: missing.length } },
    select: { nextRuleRef: true },
  });
  const first = tenant.nextRuleRef - missing.length;
  await tx.ruleRef.createMany({ data: missing.map((name, i) => ({ tenantId, name, ref: first + i })) });
}

/** Every rule name the tenant ever had, with its ref token (monitoring names the refs it recorded). */
export async function listRuleRefs(tenantId: string): Promise<{ name: string; ref: string }[]> {
  const rows = await getDb().ruleRef.findMany({ where: { tenantId }, select: { name: true, ref: true } });
  return rows.map((row) => ({ name: row.name, ref: refToken(row.ref) }));
}
