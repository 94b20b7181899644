/**
 * Identifier overrides (PUT/GET /api/admin/tenants/{tenantId}/rules/{rule}/overrides) on two built
 * servers on one Redis and one Postgres: an override set through A is in force for POST
 * /api/v1/check on B within 1 s; exact beats the longest prefix beats the rule; invalid input is a
 * 422 per field and a rule of another scope a 404; the change is audited and revertible; replacing
 * the rules without the identifier rule deletes its overrides.
 */
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall, type CreatedKey } from "@/test/support/adminClient";
import { msUntil, waitUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { twoServersForSuite } from "@/test/support/twoServers";

const HOUR_MS = 3_600_000;
const PROPAGATION_LIMIT_MS = 1_000;

const servers = twoServersForSuite("http-overrides", { SLUICE_REDIS_TIMEOUT_MS: "2000" });

const RULES: RuleInput[] = [
  { name: "per-caller", scope: "identifier", algorithm: "fixed_window", limit: 5, windowMs: HOUR_MS },
  { name: "per-key", algorithm: "fixed_window", limit: 1_000_000, windowMs: HOUR_MS },
];

async function fixture(): Promise<{ tenantId: string; key: CreatedKey }> {
  const tenant = await servers.adminA.createTenant();
  servers.track(tenant.id);
  await servers.adminA.putTenantRules(tenant.id, RULES);
  const key = await servers.adminA.createKey(tenant.id);
  await waitUntil(async () => (await check(servers.b, key, "probe")).status === 200, 10_000, "B serves the key");
  return { tenantId: tenant.id, key };
}

const check = (server: SluiceServer, key: CreatedKey, identifier: string) =>
  apiCall(server.url, "/api/v1/check", {
    method: "POST",
    key: key.key,
    body: { identifier, rule: "per-caller", cost: 0 },
  });
const limitOn = async (server: SluiceServer, key: CreatedKey, identifier: string) =>
  ((await check(server, key, identifier)).body as { limit: number }).limit;
const path = (tenantId: string, rule = "per-caller") => `/api/admin/tenants/${tenantId}/rules/${rule}/overrides`;

describe("identifier overrides", () => {
  it("an override set through A is in force on B within 1 s; exact beats the longest prefix beats the rule", async () => {
    const { tenantId, key } = await fixture();
    expect(await limitOn(servers.b, key, "enterprise:acme")).toBe(5);
    const overrides = [
      { identifier: "enterprise:*", limit: 1000 },
      { identifier: "enterprise:big*", limit: 5000 },
      { identifier: "enterprise:acme", limit: 7 },
    ];
    const put = await servers.adminA.request("PUT", path(tenantId), overrides);
    expect(put.status).toBe(200);
    const changedAt = performance.now();
    expect(put.body).toEqual({ rule: "per-caller", overrides });
    const elapsed = await msUntil(
      changedAt,
      async () => (await limitOn(servers.b, key, "enterprise:acme")) === 7,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
    expect(await limitOn(servers.b, key, "enterprise:bigco")).toBe(5000);
    expect(await limitOn(servers.b, key, "enterprise:small")).toBe(1000);
    expect(await limitOn(servers.b, key, "startup")).toBe(5);
    expect((await servers.adminA.request("GET", path(tenantId))).body).toEqual({ rule: "per-caller", overrides });
  });

  it("an override's limit is enforced on the identifier's shared counter across instances", async () => {
    const { tenantId, key } = await fixture();
    expect((await servers.adminA.request("PUT", path(tenantId), [{ identifier: "tiny", limit: 2 }])).status).toBe(200);
    await waitUntil(async () => (await limitOn(servers.b, key, "tiny")) === 2, 10_000, "B has the override");
    const charge = (server: SluiceServer) =>
      apiCall(server.url, "/api/v1/check", {
        method: "POST",
        key: key.key,
        body: { identifier: "tiny", rule: "per-caller" },
      });
    const verdicts = [await charge(servers.a), await charge(servers.b), await charge(servers.a)].map(
      (r) => (r.body as { allowed: boolean }).allowed,
    );
    expect(verdicts).toEqual([true, true, false]);
  });

  it("422 per field for invalid overrides, 404 for a rule of another scope or an unknown rule", async () => {
    const { tenantId } = await fixture();
    const bad = await servers.adminA.request("PUT", path(tenantId), [
      { identifier: "a*b", limit: 0 },
      { identifier: "x", limit: 1 },
      { identifier: "x", limit: 2 },
    ]);
    expect(bad.status).toBe(422);
    expect((bad.body as { errors: Record<string, string[]> }).errors).toMatchObject({
      "0.identifier": ["identifier may hold * only at its end (a prefix: enterprise:*)"],
      "0.limit": ["limit must be at least 1"],
      "2.identifier": ['duplicate identifier "x"'],
    });
    expect((await servers.adminA.request("PUT", path(tenantId, "per-key"), [])).status).toBe(404);
    expect((await servers.adminA.request("GET", path(tenantId, "nope"))).status).toBe(404);
  });

  it("audited as overrides.replace and revertible; replacing the rules without the identifier rule deletes its overrides", async () => {
    const { tenantId } = await fixture();
    await servers.adminA.request("PUT", path(tenantId), [{ identifier: "first", limit: 1 }]);
    await servers.adminA.request("PUT", path(tenantId), [{ identifier: "second", limit: 2 }]);
    const audit = await servers.adminA.request("GET", `/api/admin/audit?tenantId=${tenantId}&action=overrides.`);
    const events = audit.body as { id: string; action: string; revertible: boolean }[];
    expect(events.map((e) => e.action)).toEqual(["overrides.replace", "overrides.replace"]);
    expect(events[0]!.revertible).toBe(true);
    const reverted = await servers.adminA.request("POST", `/api/admin/audit/${events[0]!.id}/revert`);
    expect(reverted.status).toBeLessThan(300);
    expect((await servers.adminA.request("GET", path(tenantId))).body).toEqual({
      rule: "per-caller",
      overrides: [{ identifier: "first", limit: 1 }],
    });

    await servers.adminA.putTenantRules(tenantId, [RULES[1]!]);
    await servers.adminA.putTenantRules(tenantId, RULES);
    expect((await servers.adminA.request("GET", path(tenantId))).body).toEqual({ rule: "per-caller", overrides: [] });
  });
});
