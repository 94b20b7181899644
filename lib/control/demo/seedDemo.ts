/**
 * Demo data for `npm run demo`: the two tenants of demoTenants.ts with their rules, one API key
 * per demo client, and two operators (an admin and a viewer) whose passwords are (re)set to the
 * printed ones.
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
import { ruleListSchema } from "../../policy/rules/ruleSchema";
import { createTenant } from "../../policy/tenants/tenantStore";
import { DEMO_TENANTS, type DemoTenant } from "./demoTenants";

const SEED_ACTOR: Actor = { id: "seed", role: "admin" };
const KEY_NAME_PREFIX = "demo: ";

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
