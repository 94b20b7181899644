/**
 * Grants (issue 33): POST/GET/DELETE /api/admin/keys/{keyId}/grants through the route handlers,
 * against the test database, with two instances' access caches (each loading from Postgres, as
 * after the change notice) deciding on one Redis: a key at its limit gets exactly `units` more
 * whichever instance it calls, the grant ends by itself at `until` (the caches' clock moved past
 * it, no reload), it is audited and revertible, and invalid or foreign calls are refused.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { adminCaller, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { plainRedis } from "@/test/support/testRedis";

const { prefix, auth, close } = routeTestEnv("grants");
const routes = await loadRoutes(
  "tenants",
  "tenantKeys",
  "tenantRules",
  "keyGrants",
  "keyGrant",
  "tokens",
  "auditRevert",
  "audit",
  "keyQuota",
);
const { AccessCache } = await import("@/lib/policy/compiled/accessCache");
const { prismaAccessLoader } = await import("@/lib/policy/compiled/accessLoader");
const { createLimiter } = await import("@/lib/limiter/decide");

const redis = plainRedis();
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });
const admin = adminCaller(auth);
const created: string[] = [];
let clock = Date.now();
const instances = [0, 1].map(() => new AccessCache(prismaAccessLoader, { now: () => clock }));

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  redis.disconnect();
  await close();
});

async function tenantWithKey(limit = 3): Promise<{ tenantId: string; keyId: string }> {
  const t = await admin(routes.tenants, "POST", "/tenants", {}, { name: `grants-${randomBytes(4).toString("hex")}` });
  created.push(t.body.id);
  const tenantId = t.body.id as string;
  const rules = [
    { name: "per-key", algorithm: "fixed_window", limit, windowMs: 3_600_000 },
    { name: "daily", algorithm: "fixed_window", limit: 1000, period: "day", timeZone: "Europe/Berlin" },
    { name: "total", scope: "tenant", limit: 1000, windowMs: 60_000 },
  ];
  expect((await admin(routes.tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, rules)).status).toBe(200);
  const k = await admin(routes.tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "k" });
  return { tenantId, keyId: k.body.id };
}

/** One request of the key on instance `i` (its caches reloaded from Postgres first, as after a change notice). */
async function call(i: number, tenantId: string, keyId: string): Promise<boolean> {
  const cache = instances[i]!;
  const key = cache.liveKey(keyId)!;
  const rules = cache.rulesFor(tenantId, { key }).map((r) => r.limiter);
  const decision = await limiter.decide(rules, { tenantId, keyId }, {});
  return decision.allowed;
}

const reload = (tenantId: string) => Promise.all(instances.map((c) => c.tenantChanged(tenantId)));

describe("grants", () => {
  it("a key at its limit gets exactly `units` more, on either instance; grants add up", async () => {
    clock = Date.now();
    const { tenantId, keyId } = await tenantWithKey(3);
    await reload(tenantId);
    const first = [await call(0, tenantId, keyId), await call(1, tenantId, keyId), await call(0, tenantId, keyId)];
    expect(first).toEqual([true, true, true]);
    expect(await call(1, tenantId, keyId)).toBe(false);

    const res = await admin(
      routes.keyGrants,
      "POST",
      `/keys/${keyId}/grants`,
      { keyId },
      { units: 2, rule: "per-key" },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ keyId, rule: "per-key", units: 2, createdBy: "token" });
    // Default until: the end of the rule's current hour-long window.
    expect(Date.parse(res.body.until)).toBe((Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000);
    await reload(tenantId);
    const granted = [];
    for (let i = 0; i < 4; i++) granted.push(await call(i % 2, tenantId, keyId));
    expect(granted).toEqual([true, true, false, false]);

    // A second grant for every key-scoped rule adds up with the first.
    const all = await admin(routes.keyGrants, "POST", `/keys/${keyId}/grants`, { keyId }, { units: 1 });
    expect(all.status).toBe(201);
    expect(all.body.rule).toBeNull();
    await reload(tenantId);
    expect([await call(1, tenantId, keyId), await call(0, tenantId, keyId)]).toEqual([true, false]);

    // The key page's remaining quota peeks the raised limit: 3 + 2 + 1, all used.
    const quota = await admin(routes.keyQuota, "GET", `/keys/${keyId}/quota`, { keyId });
    expect(quota.body.rules.find((r: { name: string }) => r.name === "per-key")).toMatchObject({
      limit: 6,
      remaining: 0,
    });
    const list = await admin(routes.keyGrants, "GET", `/keys/${keyId}/grants`, { keyId });
    expect(list.status).toBe(200);
    expect(list.body.map((g: { units: number }) => g.units).sort()).toEqual([1, 2]);
  });

  it("ends by itself at `until`, and DELETE ends one now", async () => {
    clock = Date.now();
    const { tenantId, keyId } = await tenantWithKey(1);
    const until = new Date(Date.now() + 120_000).toISOString();
    const res = await admin(routes.keyGrants, "POST", `/keys/${keyId}/grants`, { keyId }, { units: 5, until });
    expect(res.status).toBe(201);
    expect(res.body.until).toBe(until);
    await reload(tenantId);
    // The key as the cache holds it now (a reload replaces it).
    const limitOf = () =>
      instances[0]!.rulesFor(tenantId, { key: instances[0]!.liveKey(keyId)! }).find((r) => r.rule.name === "per-key")!
        .limiter.limit;
    expect(limitOf()).toBe(6);
    clock = Date.parse(until); // no reload: the cache drops the grant at its end
    expect(limitOf()).toBe(1);
    clock = Date.now();

    const other = await admin(routes.keyGrants, "POST", `/keys/${keyId}/grants`, { keyId }, { units: 4 });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    await reload(tenantId);
    expect(limitOf()).toBe(10); // 1 + 5 + 4: the daily rule is raised too
    const gone = await admin(routes.keyGrant, "DELETE", `/keys/${keyId}/grants/${other.body.id}`, {
      keyId,
      grantId: other.body.id,
    });
    expect(gone.status).toBe(204);
    await reload(tenantId);
    expect(limitOf()).toBe(6);
    const again = await admin(routes.keyGrant, "DELETE", `/keys/${keyId}/grants/${other.body.id}`, {
      keyId,
      grantId: other.body.id,
    });
    expect(again.status).toBe(404);
  });

  it("is audited, and reverting it ends it", async () => {
    const { tenantId, keyId } = await tenantWithKey(1);
    const res = await admin(routes.keyGrants, "POST", `/keys/${keyId}/grants`, { keyId }, { units: 3, rule: "daily" });
    expect(res.status).toBe(201);
    // A calendar rule's default until: the end of the Berlin day.
    const audit = await admin(routes.audit, "GET", `/audit?tenantId=${tenantId}`, {});
    const event = audit.body.events?.[0] ?? audit.body[0];
    expect(event).toMatchObject({ action: "key.grant", target: `key:${keyId}` });
    const revert = await admin(routes.auditRevert, "POST", `/audit/${event.id}/revert`, { auditId: event.id });
    expect(revert.status).toBe(200);
    const list = await admin(routes.keyGrants, "GET", `/keys/${keyId}/grants`, { keyId });
    expect(list.body).toEqual([]);
  });

  it("refuses invalid grants with 422 naming the field, and another tenant's key for a tenant-limited token", async () => {
    const { keyId } = await tenantWithKey(1);
    const bad = async (body: unknown) => admin(routes.keyGrants, "POST", `/keys/${keyId}/grants`, { keyId }, body);
    for (const [body, field] of [
      [{ units: 0 }, "units"],
      [{ units: 1.5 }, "units"],
      [{ units: 1, rule: "total" }, "rule"], // a tenant-scoped rule
      [{ units: 1, rule: "nope" }, "rule"],
      [{ units: 1, until: "2020-01-01T00:00:00Z" }, "until"],
      [{ units: 1, until: "tomorrow" }, "until"],
      [{ units: 1, extra: true }, ""],
    ] as const) {
      const res = await bad(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      if (field) expect(Object.keys(res.body.errors ?? {}), JSON.stringify(body)).toContain(field);
    }

    const mine = await tenantWithKey(1);
    const token = await admin(
      routes.tokens,
      "POST",
      "/tokens",
      {},
      {
        name: `grants-${randomBytes(4).toString("hex")}`,
        role: "admin",
        tenantId: mine.tenantId,
      },
    );
    expect(token.status).toBe(201);
    const asToken = { authorization: `Bearer ${token.body.token}` };
    const foreign = await admin(routes.keyGrants, "POST", `/keys/${keyId}/grants`, { keyId }, { units: 1 }, asToken);
    expect([403, 404]).toContain(foreign.status);
    const own = await admin(
      routes.keyGrants,
      "POST",
      `/keys/${mine.keyId}/grants`,
      { keyId: mine.keyId },
      { units: 1 },
      asToken,
    );
    expect(own.status).toBe(201);
  });
});
