/**
 * Identifier overrides (PUT/GET /api/admin/tenants/{tenantId}/rules/{rule}/overrides) on two built
 * servers on one Redis and one Postgres: an override set through A is in force for POST
 * /api/v1/check on B within 1 s; exact beats the longest prefix beats the rule; invalid input is a
 * 422 per field and a rule of another scope a 404; the change is audited and revertible; replacing
 * the rules without the identifier rule deletes its overrides.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/rules/ruleSchema";
import { adminClient, apiCall, deleteTenants, type AdminClient, type CreatedKey } from "@/test/support/adminClient";
import { cleanupRedis, msUntil, sluiceEnv, TEST_DATABASE_URL, waitUntil } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const HOUR_MS = 3_600_000;
const PROPAGATION_LIMIT_MS = 1_000;

const shared = sluiceEnv("http-overrides", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
let a: SluiceServer;
let b: SluiceServer;
let admin: AdminClient;
const createdTenants: string[] = [];

beforeAll(async () => {
  a = await startSluice({ env: shared.env });
  b = await startSluice({ env: shared.env });
  admin = adminClient(a.url, shared.adminToken);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await deleteTenants(TEST_DATABASE_URL, createdTenants);
  await cleanupRedis(shared.prefix);
});

const RULES: RuleInput[] = [
  { name: "per-caller", scope: "identifier", algorithm: "fixed_window", limit: 5, windowMs: HOUR_MS },
  { name: "per-key", algorithm: "fixed_window", limit: 1_000_000, windowMs: HOUR_MS },
];

async function fixture(): Promise<{ tenantId: string; key: CreatedKey }> {
  const tenant = await admin.createTenant();
  createdTenants.push(tenant.id);
  await admin.putTenantRules(tenant.id, RULES);
  const key = await admin.createKey(tenant.id);
  await waitUntil(async () => (await check(b, key, "probe")).status === 200, 10_000, "B serves the key");
  return { tenantId: tenant.id, key };
}

const check = (server: SluiceServer, key: CreatedKey, identifier: string) => apiCall(server.url, "/api/v1/check", { method: "POST", key: key.key, body: { identifier, rule: "per-caller", cost: 0 } });
const limitOn = async (server: SluiceServer, key: CreatedKey, identifier: string) => ((await check(server, key, identifier)).body as { limit: number }).limit;
const path = (tenantId: string, rule = "per-caller") => `/api/admin/tenants/${tenantId}/rules/${rule}/overrides`;

describe("identifier overrides", () => {
  it("an override set through A is in force on B within 1 s; exact beats the longest prefix beats the rule", async () => {
    const { tenantId, key } = await fixture();
    expect(await limitOn(b, key, "enterprise:acme")).toBe(5);
    const overrides = [
      { identifier: "enterprise:*", limit: 1000 },
      { identifier: "enterprise:big*", limit: 5000 },
      { identifier: "enterprise:acme", limit: 7 },
    ];
    const put = await admin.request("PUT", path(tenantId), overrides);
    expect(put.status).toBe(200);
    const changedAt = performance.now();
    expect(put.body).toEqual({ rule: "per-caller", overrides });
    const elapsed = await msUntil(changedAt, async () => (await limitOn(b, key, "enterprise:acme")) === 7, 10 * PROPAGATION_LIMIT_MS);
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
    expect(await limitOn(b, key, "enterprise:bigco")).toBe(5000);
    expect(await limitOn(b, key, "enterprise:small")).toBe(1000);
    expect(await limitOn(b, key, "startup")).toBe(5);
    expect((await admin.request("GET", path(tenantId))).body).toEqual({ rule: "per-caller", overrides });
  });

  it("an override's limit is enforced on the identifier's shared counter across instances", async () => {
    const { tenantId, key } = await fixture();
    expect((await admin.request("PUT", path(tenantId), [{ identifier: "tiny", limit: 2 }])).status).toBe(200);
    await waitUntil(async () => (await limitOn(b, key, "tiny")) === 2, 10_000, "B has the override");
    const charge = (server: SluiceServer) => apiCall(server.url, "/api/v1/check", { method: "POST", key: key.key, body: { identifier: "tiny", rule: "per-caller" } });
    const verdicts = [await charge(a), await charge(b), await charge(a)].map((r) => (r.body as { allowed: boolean }).allowed);
    expect(verdicts).toEqual([true, true, false]);
  });

  it("422 per field for invalid overrides, 404 for a rule of another scope or an unknown rule", async () => {
    const { tenantId } = await fixture();
    const bad = await admin.request("PUT", path(tenantId), [{ identifier: "a*b", limit: 0 }, { identifier: "x", limit: 1 }, { identifier: "x", limit: 2 }]);
    expect(bad.status).toBe(422);
    expect((bad.body as { errors: Record<string, string[]> }).errors).toMatchObject({
      "0.identifier": ["identifier may hold * only at its end (a prefix: enterprise:*)"],
      "0.limit": ["limit must be at least 1"],
      "2.identifier": ['duplicate identifier "x"'],
    });
    expect((await admin.request("PUT", path(tenantId, "per-key"), [])).status).toBe(404);
    expect((await admin.request("GET", path(tenantId, "nope"))).status).toBe(404);
  });

  it("audited as overrides.replace and revertible; replacing the rules without the identifier rule deletes its overrides", async () => {
    const { tenantId } = await fixture();
    await admin.request("PUT", path(tenantId), [{ identifier: "first", limit: 1 }]);
    await admin.request("PUT", path(tenantId), [{ identifier: "second", limit: 2 }]);
    const audit = await admin.request("GET", `/api/admin/audit?tenantId=${tenantId}&action=overrides.`);
    const events = audit.body as { id: string; action: string; revertible: boolean }[];
    expect(events.map((e) => e.action)).toEqual(["overrides.replace", "overrides.replace"]);
    expect(events[0]!.revertible).toBe(true);
    const reverted = await admin.request("POST", `/api/admin/audit/${events[0]!.id}/revert`);
    expect(reverted.status).toBeLessThan(300);
    expect((await admin.request("GET", path(tenantId))).body).toEqual({ rule: "per-caller", overrides: [{ identifier: "first", limit: 1 }] });

    await admin.putTenantRules(tenantId, [RULES[1]!]);
    await admin.putTenantRules(tenantId, RULES);
    expect((await admin.request("GET", path(tenantId))).body).toEqual({ rule: "per-caller", overrides: [] });
  });
});
