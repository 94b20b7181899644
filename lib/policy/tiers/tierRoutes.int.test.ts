/**
 * Tiers through the route handlers (no server), against the test database and the shared Redis
 * under this file's own prefix: GET .../tiers, GET/PUT/DELETE .../tiers/{tier}/rules, a key's tier
 * on POST .../keys and PATCH /api/admin/keys/{id}, each audited (and revertible) and in force on this
 * instance's access cache at once (the key's compiled rules: tenant, then tier, then its own), the
 * 422s (bad tier name, scope tenant or identifier) and the 404 of an unknown tenant. Cleans up its
 * tenants (keys, rules and audit events go with them) and its Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { adminCaller, auditCalls, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const { auth, close } = routeTestEnv("tiers");
const { tenants, tenantKeys, tenantTiers, tierRules, key, keyRules, audit, auditRevert } = await loadRoutes(
  "tenants",
  "tenantKeys",
  "tenantTiers",
  "tierRules",
  "key",
  "keyRules",
  "audit",
  "auditRevert",
);
const runtime = await import("@/lib/runtime/services");
const created: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

const call = adminCaller(auth);
const { auditOf, revert } = auditCalls(call, audit, auditRevert);
const access = () => runtime.services().access;
const unique = () => randomBytes(4).toString("hex");

const listTiers = (tenantId: string) => call(tenantTiers, "GET", `/tenants/${tenantId}/tiers`, { tenantId });
const getTier = (tenantId: string, tier: string) =>
  call(tierRules, "GET", `/tenants/${tenantId}/tiers/${tier}/rules`, { tenantId, tier });
const putTier = (tenantId: string, tier: string, body: unknown) =>
  call(tierRules, "PUT", `/tenants/${tenantId}/tiers/${tier}/rules`, { tenantId, tier }, body);
const deleteTier = (tenantId: string, tier: string) =>
  call(tierRules, "DELETE", `/tenants/${tenantId}/tiers/${tier}/rules`, { tenantId, tier });
const createKey = (tenantId: string, body: unknown) =>
  call(tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, body);
const patchKey = (keyId: string, body: unknown) => call(key, "PATCH", `/keys/${keyId}`, { keyId }, body);

const perKey = (limit: number) => ({ name: "per-key", scope: "key", limit, windowMs: 60_000 });

async function newTenant(): Promise<string> {
  const res = await call(tenants, "POST", "/tenants", {}, { name: `tiers-${unique()}` });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  await access().ready();
  return res.body.id as string;
}

/** The limits the key's requests are checked against now, on this instance, by rule name. */
const limitsInForce = (keyId: string) =>
  Object.fromEntries((access().key(keyId)?.rules ?? []).map((r) => [r.rule.name, r.rule.limit]));

describe("a tier's rules", () => {
  it("PUT stores them (200 with them), GET reads them, the tier is listed, and it is audited", async () => {
    const tenantId = await newTenant();
    const res = await putTier(tenantId, "pro", [perKey(1000)]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject([{ name: "per-key", scope: "key", limit: 1000 }]);
    expect((await getTier(tenantId, "pro")).body).toEqual(res.body);
    expect((await listTiers(tenantId)).body).toEqual([{ name: "pro", rules: res.body, keys: 0 }]);
    const [event] = await auditOf(tenantId);
    expect(event).toMatchObject({ action: "rules.replace", before: [], after: res.body });
  });

  it("apply to keys in the tier at once: tenant rules, then the tier's, then the key's own", async () => {
    const tenantId = await newTenant();
    await call(tenantKeys, "GET", `/tenants/${tenantId}/keys`, { tenantId });
    const { tenantRules } = await loadRoutes("tenantRules");
    await call(tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, [
      perKey(10),
      { name: "per-ip", scope: "ip", limit: 50, windowMs: 60_000 },
    ]);
    const pro = await createKey(tenantId, { name: "pro key", tier: "pro" });
    expect(pro.status).toBe(201);
    expect(pro.body.tier).toBe("pro");
    // A tier without rules yet leaves the tenant's rules as they are.
    expect(limitsInForce(pro.body.id)).toEqual({ "per-key": 10, "per-ip": 50 });
    const put = await putTier(tenantId, "pro", [
      perKey(1000),
      { name: "pro-burst", scope: "key", limit: 5, windowMs: 1000 },
    ]);
    expect(put.status).toBe(200);
    expect(limitsInForce(pro.body.id)).toEqual({ "per-key": 1000, "per-ip": 50, "pro-burst": 5 });
    await call(keyRules, "PUT", `/keys/${pro.body.id}/rules`, { keyId: pro.body.id }, [
      { name: "pro-burst", scope: "key", limit: 7, windowMs: 1000 },
    ]);
    expect(limitsInForce(pro.body.id)).toEqual({ "per-key": 1000, "per-ip": 50, "pro-burst": 7 });
    const details = await call(key, "GET", `/keys/${pro.body.id}`, { keyId: pro.body.id });
    expect(details.body.tier).toBe("pro");
    expect(details.body.rules.tier.map((r: { name: string }) => r.name)).toEqual(["per-key", "pro-burst"]);
    expect(details.body.rules.effective.map((r: { name: string; source: string }) => [r.name, r.source])).toEqual([
      ["per-key", "tier"],
      ["per-ip", "tenant"],
      ["pro-burst", "override"],
    ]);
    // A JWT caller naming the tier gets the same tier set (no key of its own).
    expect(
      access()
        .rulesFor(tenantId, { tier: "pro" })
        .map((r) => r.rule.limit),
    ).toEqual([1000, 50, 5]);
  });

  it("DELETE removes them (204), audited as tier.delete and revertible; keys keep naming the tier", async () => {
    const tenantId = await newTenant();
    const k = await createKey(tenantId, { name: "k", tier: "gold" });
    const rules = (await putTier(tenantId, "gold", [perKey(500)])).body;
    expect(limitsInForce(k.body.id)).toEqual({ "per-key": 500 });
    const res = await deleteTier(tenantId, "gold");
    expect(res.status).toBe(204);
    expect((await getTier(tenantId, "gold")).body).toEqual([]);
    expect(limitsInForce(k.body.id)).toEqual({});
    expect((await listTiers(tenantId)).body).toEqual([{ name: "gold", rules: [], keys: 1 }]);
    const [deleted] = await auditOf(tenantId);
    expect(deleted).toMatchObject({ action: "tier.delete", before: rules, after: [] });
    expect((await revert(deleted!.id)).status).toBe(200);
    expect((await getTier(tenantId, "gold")).body).toEqual(rules);
    expect(limitsInForce(k.body.id)).toEqual({ "per-key": 500 });
    expect((await auditOf(tenantId))[0]).toMatchObject({ action: "tier.delete.revert", revertOf: deleted!.id });
    // Deleting a tier without rules changes nothing and records nothing.
    const events = (await auditOf(tenantId)).length;
    expect((await deleteTier(tenantId, "never")).status).toBe(204);
    expect(await auditOf(tenantId)).toHaveLength(events);
  });
});

describe("a key's tier", () => {
  it("PATCH sets and clears it, audited as key.tier and revertible, in force here at once", async () => {
    const tenantId = await newTenant();
    await putTier(tenantId, "pro", [perKey(1000)]);
    const k = (await createKey(tenantId, { name: "k" })).body;
    expect(k.tier).toBeNull();
    expect(limitsInForce(k.id)).toEqual({});
    const set = await patchKey(k.id, { tier: "pro" });
    expect(set.status).toBe(200);
    expect(set.body.tier).toBe("pro");
    expect(limitsInForce(k.id)).toEqual({ "per-key": 1000 });
    const [event] = await auditOf(tenantId);
    expect(event).toMatchObject({ action: "key.tier", before: { tier: null }, after: { tier: "pro" } });
    expect((await patchKey(k.id, { tier: null })).body.tier).toBeNull();
    expect(limitsInForce(k.id)).toEqual({});
    const [cleared] = await auditOf(tenantId);
    expect((await revert(cleared!.id)).status).toBe(200);
    expect(access().key(k.id)?.tier).toBe("pro");
    // A tier that has no rules is a valid tier to name; the list shows it.
    expect((await patchKey(k.id, { tier: "enterprise" })).status).toBe(200);
    expect((await listTiers(tenantId)).body.map((t: { name: string; keys: number }) => [t.name, t.keys])).toEqual([
      ["enterprise", 1],
      ["pro", 0],
    ]);
  });
});

describe("422", () => {
  it.each(["Pro", "-pro", "a".repeat(65), "pro plan"])("a bad tier name in the path: %j", async (tier) => {
    const tenantId = await newTenant();
    const res = await putTier(tenantId, tier, [perKey(1)]);
    expect(res.status).toBe(422);
    expect(res.body.errors.tier[0]).toMatch(/tier must be/);
  });

  it("a bad tier name on a key", async () => {
    const tenantId = await newTenant();
    const created = await createKey(tenantId, { name: "k", tier: "Gold!" });
    expect(created.status).toBe(422);
    expect(created.body.errors.tier[0]).toMatch(/tier must be/);
    const k = (await createKey(tenantId, { name: "k" })).body;
    const patched = await patchKey(k.id, { tier: 5 });
    expect(patched.status).toBe(422);
    expect(patched.body.errors.tier).toBeDefined();
  });

  it.each(["tenant", "identifier"])("a tier rule of scope %s, and nothing changes", async (scope) => {
    const tenantId = await newTenant();
    await putTier(tenantId, "pro", [perKey(5)]);
    const res = await putTier(tenantId, "pro", [{ ...perKey(5), name: "bad", scope }]);
    expect(res.status).toBe(422);
    expect(res.body.errors["0.scope"][0]).toMatch(`a tier rule may not have scope ${scope}`);
    expect((await getTier(tenantId, "pro")).body).toMatchObject([{ name: "per-key", limit: 5 }]);
  });
});

describe("404", () => {
  it("an unknown tenant", async () => {
    expect((await listTiers("nosuchte")).status).toBe(404);
    expect((await getTier("nosuchte", "pro")).status).toBe(404);
    expect((await putTier("nosuchte", "pro", [])).status).toBe(404);
    expect((await deleteTier("nosuchte", "pro")).status).toBe(404);
    expect((await createKey("nosuchte", { name: "k", tier: "pro" })).status).toBe(404);
  });
});
