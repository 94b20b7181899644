/**
 * Demo data: one tenant with one rule per algorithm (plus an identifier rule for the decision API)
 * and three API keys for the demo traffic. Idempotent: the tenant and its rules are reused; the
 * previous demo keys are revoked and fresh ones minted, because a key is only readable at creation.
 */
import type { Actor } from "../audit/auditLog";
import { createKey, listKeys, revokeKey } from "../apiKeys/keyStore";
import { getDb } from "../db/client";
import { replaceRules } from "../rules/ruleStore";
import { ruleListSchema, type RuleInput } from "../rules/ruleSchema";
import { createTenant } from "../tenants/tenantStore";

export const DEMO_TENANT = "Demo tenant";
const SEED_ACTOR: Actor = { id: "seed", role: "admin" };

export const DEMO_RULES: RuleInput[] = [
  { name: "per-key", algorithm: "sliding_window", scope: "key", limit: 120, windowMs: 60_000 },
  { name: "burst", algorithm: "token_bucket", scope: "key", limit: 10, windowMs: 1_000, burst: 20 },
  { name: "per-ip", algorithm: "gcra", scope: "ip", limit: 600, windowMs: 60_000, burst: 50 },
  { name: "tenant-total", algorithm: "fixed_window", scope: "tenant", limit: 20_000, windowMs: 60_000 },
  { name: "writes", algorithm: "sliding_log", scope: "key", limit: 10, windowMs: 60_000, match: { methods: ["POST", "PUT", "PATCH", "DELETE"] } },
  { name: "strict-trial", algorithm: "fixed_window", scope: "key", limit: 30, windowMs: 60_000, mode: "shadow" },
  { name: "signups", algorithm: "sliding_window", scope: "identifier", limit: 5, windowMs: 60_000 },
];

/** The demo clients: how they behave is up to the traffic driver (scripts/demo.ts). */
export const DEMO_CLIENTS = ["steady", "bursty", "abusive"] as const;
export type DemoClient = (typeof DEMO_CLIENTS)[number];

export interface SeededDemo {
  tenantId: string;
  keys: Record<DemoClient, string>;
}

export async function seedDemo(): Promise<SeededDemo> {
  const existing = await getDb().tenant.findUnique({ where: { name: DEMO_TENANT } });
  const tenantId = existing?.id ?? (await createTenant(SEED_ACTOR, DEMO_TENANT)).id;
  await replaceRules(SEED_ACTOR, { kind: "tenant", tenantId }, ruleListSchema.parse(DEMO_RULES));
  for (const key of await listKeys(tenantId)) {
    if (!key.revokedAt && key.name.startsWith("demo: ")) await revokeKey(SEED_ACTOR, key.id);
  }
  const keys = {} as Record<DemoClient, string>;
  for (const client of DEMO_CLIENTS) keys[client] = (await createKey(SEED_ACTOR, tenantId, `demo: ${client}`)).key;
  return { tenantId, keys };
}
