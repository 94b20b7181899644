/**
 * A key's billing day (issue 33: a month quota "anchored at a key's own billing day"): set through
 * POST /api/admin/tenants/{id}/keys and PATCH /api/admin/keys/{id} (validated, audited), loaded by
 * the access cache from Postgres, its month rules of scope key reset on that day (headers and
 * Retry-After give the anchored period's end) while a key without one keeps calendar months, and the
 * policy document exports and applies it.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { adminCaller, auditCalls, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { plainRedis } from "@/test/support/testRedis";

const { prefix, auth, close } = routeTestEnv("billingday");
const routes = await loadRoutes("tenants", "tenantKeys", "tenantRules", "key", "tenantPolicy", "audit", "auditRevert");
const { AccessCache } = await import("@/lib/policy/compiled/accessCache");
const { prismaAccessLoader } = await import("@/lib/policy/compiled/accessLoader");
const { createLimiter } = await import("@/lib/limiter/decide");
const { rateLimitHeaders } = await import("@/lib/limiter/headers");

const redis = plainRedis();
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });
const admin = adminCaller(auth);
const created: string[] = [];
const cache = new AccessCache(prismaAccessLoader);

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  redis.disconnect();
  await close();
});

async function tenant(): Promise<string> {
  const t = await admin(
    routes.tenants,
    "POST",
    "/tenants",
    {},
    { name: `billing-day-${randomBytes(4).toString("hex")}` },
  );
  created.push(t.body.id);
  const tenantId = t.body.id as string;
  const rules = [{ name: "monthly", algorithm: "fixed_window", limit: 2, period: "month", timeZone: "UTC" }];
  expect((await admin(routes.tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, rules)).status).toBe(200);
  return tenantId;
}

async function decide(tenantId: string, keyId: string, when: string) {
  await cache.tenantChanged(tenantId);
  const rules = cache.rulesFor(tenantId, { key: cache.liveKey(keyId)! }).map((r) => r.limiter);
  const decision = await limiter.decide(rules, { tenantId, keyId }, { nowMs: Date.parse(when) });
  return { allowed: decision.allowed, headers: rateLimitHeaders(decision) };
}
const epoch = (iso: string) => String(Date.parse(iso) / 1000);

describe("a key's billing day", () => {
  it("a key anchored on the 15th resets on the 15th; a key without one on the 1st", async () => {
    const tenantId = await tenant();
    const path = `/tenants/${tenantId}/keys`;
    const anchored = await admin(routes.tenantKeys, "POST", path, { tenantId }, { name: "a", billingDay: 15 });
    expect(anchored.status).toBe(201);
    expect(anchored.body.billingDay).toBe(15);
    const plain = await admin(routes.tenantKeys, "POST", path, { tenantId }, { name: "p" });
    expect(plain.body.billingDay).toBeNull();
    const a = anchored.body.id as string;
    const p = plain.body.id as string;

    for (const key of [a, p]) {
      expect((await decide(tenantId, key, "2027-01-05T10:00:00Z")).allowed).toBe(true);
      expect((await decide(tenantId, key, "2027-01-10T10:00:00Z")).allowed).toBe(true);
    }
    const refused = await decide(tenantId, a, "2027-01-14T23:59:00Z");
    expect(refused.allowed).toBe(false);
    expect(refused.headers["Retry-After"]).toBe("60");
    expect(refused.headers["X-RateLimit-Reset"]).toBe(epoch("2027-01-15T00:00:00Z"));
    const fifteenth = await decide(tenantId, a, "2027-01-15T00:00:00Z");
    expect(fifteenth.allowed).toBe(true);
    expect(fifteenth.headers["X-RateLimit-Reset"]).toBe(epoch("2027-02-15T00:00:00Z"));
    // The key without a billing day counts the calendar month: still refused on the 15th, until February 1st.
    const calendar = await decide(tenantId, p, "2027-01-15T00:00:00Z");
    expect(calendar.allowed).toBe(false);
    expect(calendar.headers["X-RateLimit-Reset"]).toBe(epoch("2027-02-01T00:00:00Z"));
  });

  it("anchor 31: February's period starts on its last day; PATCH sets and clears it, invalid days are a 422", async () => {
    const tenantId = await tenant();
    const k = await admin(routes.tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "k" });
    const keyId = k.body.id as string;
    for (const billingDay of [0, 32, 1.5, "15"]) {
      const bad = await admin(routes.key, "PATCH", `/keys/${keyId}`, { keyId }, { billingDay });
      expect(bad.status, String(billingDay)).toBe(422);
    }
    const set = await admin(routes.key, "PATCH", `/keys/${keyId}`, { keyId }, { billingDay: 31 });
    expect([set.status, set.body.billingDay]).toEqual([200, 31]);
    await decide(tenantId, keyId, "2027-02-10T00:00:00Z");
    const full = await decide(tenantId, keyId, "2027-02-20T00:00:00Z");
    expect(full.headers["X-RateLimit-Reset"]).toBe(epoch("2027-02-28T00:00:00Z"));
    expect((await decide(tenantId, keyId, "2027-02-27T23:00:00Z")).allowed).toBe(false);
    const leap = await decide(tenantId, keyId, "2027-02-28T00:00:00Z");
    expect(leap.allowed).toBe(true);
    expect(leap.headers["X-RateLimit-Reset"]).toBe(epoch("2027-03-31T00:00:00Z"));

    const cleared = await admin(routes.key, "PATCH", `/keys/${keyId}`, { keyId }, { billingDay: null });
    expect(cleared.body.billingDay).toBeNull();
    const calendar = await decide(tenantId, keyId, "2027-03-10T00:00:00Z");
    expect(calendar.headers["X-RateLimit-Reset"]).toBe(epoch("2027-04-01T00:00:00Z"));
  });

  it("the policy document exports a key's billing day and applies a change of it", async () => {
    const tenantId = await tenant();
    const path = `/tenants/${tenantId}/keys`;
    await admin(routes.tenantKeys, "POST", path, { tenantId }, { name: "anchored", billingDay: 15 });
    await admin(routes.tenantKeys, "POST", path, { tenantId }, { name: "plain" });
    const policyPath = `/tenants/${tenantId}/policy`;
    const doc = await admin(routes.tenantPolicy, "GET", policyPath, { tenantId });
    expect(doc.body.keys.anchored).toEqual({ tier: null, rules: [], billingDay: 15 });
    expect(doc.body.keys.plain).toEqual({ tier: null, rules: [] });
    // Applying the export unchanged changes nothing.
    const same = await admin(routes.tenantPolicy, "PUT", policyPath, { tenantId }, doc.body);
    expect(same.body.changed).toEqual([]);
    const edited = { ...doc.body, keys: { anchored: { tier: null, billingDay: 3 }, plain: { billingDay: 28 } } };
    const applied = await admin(routes.tenantPolicy, "PUT", policyPath, { tenantId }, edited);
    expect(applied.status).toBe(200);
    expect(applied.body.changed).toEqual(["keys.anchored.billingDay", "keys.plain.billingDay"]);
    const after = await admin(routes.tenantPolicy, "GET", policyPath, { tenantId });
    expect([after.body.keys.anchored.billingDay, after.body.keys.plain.billingDay]).toEqual([3, 28]);
    const bad = await admin(
      routes.tenantPolicy,
      "PUT",
      policyPath,
      { tenantId },
      {
        ...doc.body,
        keys: { plain: { billingDay: 40 } },
      },
    );
    expect(bad.status).toBe(422);
  });

  it("a change of the billing day is audited and revertible", async () => {
    const tenantId = await tenant();
    const k = await admin(routes.tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "k" });
    const keyId = k.body.id as string;
    await admin(routes.key, "PATCH", `/keys/${keyId}`, { keyId }, { billingDay: 20 });
    const { auditOf, revert } = auditCalls(admin, routes.audit, routes.auditRevert);
    const change = (await auditOf(tenantId)).find((e) => e.action === "key.billingDay")!;
    expect([change.before, change.after]).toEqual([
      expect.objectContaining({ billingDay: null }),
      expect.objectContaining({ billingDay: 20 }),
    ]);
    expect((await revert(change.id)).status).toBe(200);
    const after = await admin(routes.tenantPolicy, "GET", `/tenants/${tenantId}/policy`, { tenantId });
    expect(after.body.keys.k).toEqual({ tier: null, rules: [] });
  });
});
