/**
 * Demo data for `npm run demo`: two tenants (the first with one rule per algorithm, a shadow rule
 * and an identifier rule for the decision API), one API key per demo client, and two operators
 * (an admin and a viewer) whose passwords are (re)set to the printed ones.
 *
 * Idempotent: tenants and rules are reused (rules re-applied), the previous demo keys are revoked
 * and fresh ones minted (a key is readable only at creation), operators are created or updated.
 * Everything is written through the same stores as the admin API, so it is validated and audited
 * (actor `seed`).
 */
import type { Actor } from "../../policy/audit/auditLog";
import { createKey, listKeys, revokeKey } from "../../policy/keys/keyStore";
import { createOperator, findOperatorForLogin, updateOperator } from "../auth/operatorStore";
import { createOperatorSchema, type Role } from "../auth/operatorSchemas";
import { getDb } from "../../db/client";
import { replaceRules } from "../../policy/rules/ruleStore";
import { ruleListSchema, type RuleInput } from "../../policy/rules/ruleSchema";
import { createTenant } from "../../policy/tenants/tenantStore";

const SEED_ACTOR: Actor = { id: "seed", role: "admin" };
const KEY_NAME_PREFIX = "demo: ";

export interface DemoTenant {
  name: string;
  rules: RuleInput[];
  /** One API key per client; how each behaves is up to the traffic driver (demoTraffic.ts). */
  clients: readonly string[];
}

export const DEMO_TENANTS = [
  {
    name: "Acme (demo)",
    rules: [
      { name: "per-key", algorithm: "sliding_window", scope: "key", limit: 120, windowMs: 60_000 },
      { name: "burst", algorithm: "token_bucket", scope: "key", limit: 10, windowMs: 1_000, burst: 20 },
      { name: "per-ip", algorithm: "gcra", scope: "ip", limit: 600, windowMs: 60_000, burst: 50 },
      { name: "tenant-total", algorithm: "fixed_window", scope: "tenant", limit: 20_000, windowMs: 60_000 },
      {
        name: "writes",
        algorithm: "sliding_log",
        scope: "key",
        limit: 10,
        windowMs: 60_000,
        // Writes to the demo API only: a decision-API call (POST /api/v1/check) is not a write.
        match: { methods: ["POST", "PUT", "PATCH", "DELETE"], path: "/api/v1/echo/**" },
      },
      { name: "strict-trial", algorithm: "fixed_window", scope: "key", limit: 30, windowMs: 60_000, mode: "shadow" },
      { name: "signups", algorithm: "sliding_window", scope: "identifier", limit: 5, windowMs: 60_000 },
    ],
    clients: ["steady", "bursty", "abusive", "partner"],
  },
  {
    name: "Globex (demo)",
    rules: [
      // A burst of 50: batch's 40 at once are refused by nightly-export's bucket, not by this.
      { name: "per-key", algorithm: "gcra", scope: "key", limit: 300, windowMs: 60_000, burst: 50 },
      {
        name: "nightly-export",
        algorithm: "token_bucket",
        scope: "key",
        limit: 2,
        windowMs: 1_000,
        burst: 30,
        match: { path: "/api/v1/echo/export/**" },
      },
    ],
    clients: ["mobile", "batch"],
  },
] as const satisfies readonly DemoTenant[];

export interface DemoOperator {
  email: string;
  password: string;
  role: Role;
}

/** Defaults of the demo logins; SLUICE_ADMIN_EMAIL / SLUICE_ADMIN_PASSWORD override the admin's. */
export function demoOperators(env: Record<string, string | undefined> = process.env): DemoOperator[] {
  return [
    {
      email: env.SLUICE_ADMIN_EMAIL || "admin@sluice.demo",
      password: env.SLUICE_ADMIN_PASSWORD || "sluice-demo-admin",
      role: "admin",
    },
    { email: "viewer@sluice.demo", password: "sluice-demo-viewer", role: "viewer" },
  ];
}

export interface SeededTenant {
  id: string;
  name: string;
  /** Client name → its fresh API key. */
  keys: Record<string, string>;
}

export interface SeededDemo {
  tenants: SeededTenant[];
  operators: DemoOperator[];
}

async function seedTenant(tenant: DemoTenant): Promise<SeededTenant> {
  const existing = await getDb().tenant.findUnique({ where: { name: tenant.name } });
  const id = existing?.id ?? (await createTenant(SEED_ACTOR, tenant.name)).id;
  await replaceRules(SEED_ACTOR, { kind: "tenant", tenantId: id }, ruleListSchema.parse(tenant.rules));
  for (const key of await listKeys(id)) {
    if (!key.revokedAt && key.name.startsWith(KEY_NAME_PREFIX)) await revokeKey(SEED_ACTOR, key.id);
  }
  const keys: Record<string, string> = {};
  for (const client of tenant.clients)
    keys[client] = (await createKey(SEED_ACTOR, id, `${KEY_NAME_PREFIX}${client}`)).key;
  return { id, name: tenant.name, keys };
}

/** Creates the operator, or resets its password and role so the printed login works. */
async function seedOperator(operator: DemoOperator): Promise<void> {
  const input = createOperatorSchema.parse(operator);
  const existing = await findOperatorForLogin(input.email);
  if (existing) await updateOperator(SEED_ACTOR, existing.id, { password: input.password, role: input.role });
  else await createOperator(SEED_ACTOR, input);
}

export async function seedDemo(env: Record<string, string | undefined> = process.env): Promise<SeededDemo> {
  const tenants: SeededTenant[] = [];
  for (const tenant of DEMO_TENANTS) tenants.push(await seedTenant(tenant));
  const operators = demoOperators(env);
  for (const operator of operators) await seedOperator(operator);
  return { tenants, operators };
}
