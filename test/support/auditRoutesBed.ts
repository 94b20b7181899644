/**
 * What the audit route tests share (lib/control/admin/auditLog.int.test.ts and
 * auditRevert.int.test.ts): `auditRoutesBed(label)`, called at the top of the test file, sets the
 * route environment under a Redis prefix of its own, loads the routes, and answers helpers that call
 * them as the token admin: a new tenant (named `<label>-<hex>`) and key, a tenant's rules put and
 * read, its audit list, a revert, a request to /api/v1/echo, the newest event of an action, and the
 * rules this instance enforces for a key (its access cache). After the tests it deletes the tenants
 * it made (keys, rules and refs cascade), the operators put in `operatorIds`, and its Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, expect } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { deleteTenants } from "./adminClient";
import { callRoute } from "./routeCall";
import { adminCaller, loadRoutes, routeTestEnv } from "./routeTestEnv";
import { TEST_DATABASE_URL } from "./sluiceEnv";

/** Two rule lists to replace one with the other. */
export const A: RuleInput[] = [{ name: "per-key", limit: 5, windowMs: 60_000 }];
export const B: RuleInput[] = [
  { name: "per-key", limit: 50, windowMs: 60_000 },
  { name: "per-ip", scope: "ip", limit: 7, windowMs: 1_000 },
];

export async function auditRoutesBed(label: string) {
  const { auth, close } = routeTestEnv(label);
  // Loaded after the environment is set: config() reads it once, on first use.
  const routes = await loadRoutes(
    "tenants",
    "tenantKeys",
    "key",
    "tenantRules",
    "keyRules",
    "audit",
    "auditRevert",
    "echo",
    "login",
  );
  const { tenants, tenantKeys: keys, tenantRules, audit, auditRevert: revert, echo } = routes;
  const runtime = await import("@/lib/runtime/services");
  const db = await import("@/lib/db/client");
  const created: string[] = [];
  const operatorIds: string[] = [];

  afterAll(async () => {
    await deleteTenants(TEST_DATABASE_URL, created);
    await db.getDb().operator.deleteMany({ where: { id: { in: operatorIds } } });
    await close();
  });

  const admin = adminCaller(auth);

  async function newTenant(): Promise<string> {
    const res = await admin(tenants, "POST", "/tenants", {}, { name: `${label}-${randomBytes(4).toString("hex")}` });
    expect(res.status).toBe(201);
    created.push(res.body.id);
    return res.body.id as string;
  }

  async function newKey(tenantId: string): Promise<{ id: string; key: string }> {
    const res = await admin(keys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "a key" });
    expect(res.status).toBe(201);
    return res.body;
  }

  const auditOf = async (tenantId: string, query = "") =>
    (await admin(audit, "GET", `/audit?tenantId=${tenantId}${query}`, {})).body;

  /** The newest audit event of the tenant with this action. */
  async function latest(
    tenantId: string,
    action: string,
  ): Promise<{ id: string; before: unknown; after: unknown; revertible: boolean }> {
    const events = await auditOf(tenantId);
    const event = events.find((e: { action: string }) => e.action === action);
    if (!event) throw new Error(`no ${action} event`);
    return event;
  }

  return {
    routes,
    db,
    operatorIds,
    admin,
    newTenant,
    newKey,
    auditOf,
    latest,
    putTenantRules: (tenantId: string, rules: RuleInput[]) =>
      admin(tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, rules),
    getTenantRules: async (tenantId: string) =>
      (await admin(tenantRules, "GET", `/tenants/${tenantId}/rules`, { tenantId })).body,
    revertOf: (auditId: string, headers: Record<string, string> = auth) =>
      admin(revert, "POST", `/audit/${auditId}/revert`, { auditId }, undefined, headers),
    callEcho: (apiKey: string) =>
      callRoute(echo.GET, {
        path: "/api/v1/echo",
        headers: { authorization: `Bearer ${apiKey}`, "x-forwarded-for": "192.0.2.50" },
      }),
    /** Rule names and limits this instance enforces for the key (its access cache). */
    enforcedFor: (keyId: string) =>
      runtime
        .services()
        .access.key(keyId)
        ?.rules.map((r) => [r.rule.name, r.rule.limit]),
  };
}
