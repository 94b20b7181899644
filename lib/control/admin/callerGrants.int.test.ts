/**
 * Grants for JWT subjects and tiers (issue 33): POST/GET/DELETE /api/admin/tenants/{tenantId}/grants
 * through the route handlers, against the test database, with two instances' access caches (each
 * loading from Postgres, as after the change notice) deciding on one Redis: a JWT subject at its
 * limit gets exactly `units` more whichever instance it calls (another subject none), a tier's grant
 * raises every key of the tier and its JWT callers (not a key of another tier), an expired grant
 * disappears with no reload, and reverting the audited grant removes it.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { adminCaller, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { plainRedis } from "@/test/support/testRedis";

const { prefix, auth, close } = routeTestEnv("cgrants");
const routes = await loadRoutes(
  "tenants",
  "tenantKeys",
  "tenantRules",
  "tierRules",
  "tenantGrants",
  "tenantGrant",
  "auditRevert",
  "audit",
  "keyQuota",
);
const { AccessCache } = await import("@/lib/policy/compiled/accessCache");
const { prismaAccessLoader } = await import("@/lib/policy/compiled/accessLoader");
const { createLimiter } = await import("@/lib/limiter/decide");
const { JWT_SUBJECT_MARK } = await import("@/lib/dataplane/admission/hostCaller");

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

async function newTenant(limit: number): Promise<string> {
  const t = await admin(routes.tenants, "POST", "/tenants", {}, { name: `cgrants-${randomBytes(4).toString("hex")}` });
  created.push(t.body.id);
  const tenantId = t.body.id as string;
  const rules = [
    { name: "per-caller", algorithm: "fixed_window", limit, windowMs: 3_600_000 },
    { name: "total", scope: "tenant", limit: 1000, windowMs: 60_000 },
  ];
  expect((await admin(routes.tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, rules)).status).toBe(200);
  return tenantId;
}

type Caller = { keyId: string } | { subject: string; tier?: string };

/** One request of `caller` on instance `i`, as admission makes it (a JWT subject counts `key` rules as `~sub`). */
async function call(i: number, tenantId: string, caller: Caller): Promise<boolean> {
  const cache = instances[i]!;
  const rules =
    "keyId" in caller
      ? cache.rulesFor(tenantId, { key: cache.liveKey(caller.keyId)! })
      : cache.rulesFor(tenantId, caller);
  const keyId = "keyId" in caller ? caller.keyId : JWT_SUBJECT_MARK + caller.subject;
  const decision = await limiter.decide(
    rules.map((r) => r.limiter),
    { tenantId, keyId },
    {},
  );
  return decision.allowed;
}

/** `n` calls alternating between the two instances. */
async function calls(n: number, tenantId: string, caller: Caller): Promise<boolean[]> {
  const out: boolean[] = [];
  for (let i = 0; i < n; i++) out.push(await call(i % 2, tenantId, caller));
  return out;
}

const reload = (tenantId: string) => Promise.all(instances.map((c) => c.tenantChanged(tenantId)));
const limitOf = (tenantId: string, caller: Caller) => {
  const cache = instances[0]!;
  const rules =
    "keyId" in caller
      ? cache.rulesFor(tenantId, { key: cache.liveKey(caller.keyId)! })
      : cache.rulesFor(tenantId, caller);
  return rules.find((r) => r.rule.name === "per-caller")!.limiter.limit;
};

describe("grants for JWT subjects and tiers", () => {
  it("a JWT subject granted 5 units gets exactly 5 more, on either instance; another subject none", async () => {
    clock = Date.now();
    const tenantId = await newTenant(2);
    await reload(tenantId);
    const alice = { subject: `alice-${randomBytes(3).toString("hex")}` };
    const bob = { subject: `bob-${randomBytes(3).toString("hex")}` };
    expect(await calls(3, tenantId, alice)).toEqual([true, true, false]);
    expect(await calls(3, tenantId, bob)).toEqual([true, true, false]);

    const res = await admin(
      routes.tenantGrants,
      "POST",
      `/tenants/${tenantId}/grants`,
      { tenantId },
      { units: 5, subject: alice.subject },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ tenantId, subject: alice.subject, tier: null, rule: null, units: 5 });
    // Default until: the end of the rule's current hour-long window.
    expect(Date.parse(res.body.until)).toBe((Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000);
    await reload(tenantId);
    expect(await calls(6, tenantId, alice)).toEqual([true, true, true, true, true, false]);
    expect(await calls(2, tenantId, bob)).toEqual([false, false]);
    // Whatever tier its token names, the subject's grant is its own.
    expect(limitOf(tenantId, { ...alice, tier: "gold" })).toBe(7);

    const list = await admin(routes.tenantGrants, "GET", `/tenants/${tenantId}/grants?subject=${alice.subject}`, {
      tenantId,
    });
    expect(list.status).toBe(200);
    expect(list.body.map((g: { units: number }) => g.units)).toEqual([5]);
    const none = await admin(routes.tenantGrants, "GET", `/tenants/${tenantId}/grants?subject=${bob.subject}`, {
      tenantId,
    });
    expect(none.body).toEqual([]);
  });

  it("a tier's grant applies to every key of the tier and its JWT callers, not to another tier's key", async () => {
    clock = Date.now();
    const tenantId = await newTenant(1);
    const tier = { tier: "pro" };
    const key = async (body: object) =>
      (await admin(routes.tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "k", ...body })).body
        .id as string;
    const pro1 = { keyId: await key(tier) };
    const pro2 = { keyId: await key(tier) };
    const free = { keyId: await key({ tier: "free" }) };
    const res = await admin(
      routes.tenantGrants,
      "POST",
      `/tenants/${tenantId}/grants`,
      { tenantId },
      { units: 2, ...tier },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await reload(tenantId);
    expect(await calls(4, tenantId, pro1)).toEqual([true, true, true, false]);
    expect(await calls(4, tenantId, pro2)).toEqual([true, true, true, false]);
    expect(await calls(2, tenantId, free)).toEqual([true, false]);
    expect(await calls(4, tenantId, { subject: "carol", tier: "pro" })).toEqual([true, true, true, false]);
    expect(limitOf(tenantId, { subject: "dave" })).toBe(1);
    // A subject's grant adds up with its tier's; a key's remaining quota shows its tier's grant.
    const own = await admin(
      routes.tenantGrants,
      "POST",
      `/tenants/${tenantId}/grants`,
      { tenantId },
      {
        units: 4,
        subject: "carol",
      },
    );
    expect(own.status).toBe(201);
    await reload(tenantId);
    expect(limitOf(tenantId, { subject: "carol", tier: "pro" })).toBe(7);
    const quota = await admin(routes.keyQuota, "GET", `/keys/${pro1.keyId}/quota`, { keyId: pro1.keyId });
    expect(quota.body.rules.find((r: { name: string }) => r.name === "per-caller")).toMatchObject({ limit: 3 });

    // It ends by itself at `until` (the caches' clock past it, no reload).
    clock = Date.parse(res.body.until);
    expect(limitOf(tenantId, pro2)).toBe(1);
    expect(limitOf(tenantId, { subject: "erin", tier: "pro" })).toBe(1);
  });

  it("is audited, and reverting it removes it on every instance; DELETE ends one now", async () => {
    clock = Date.now();
    const tenantId = await newTenant(1);
    const res = await admin(
      routes.tenantGrants,
      "POST",
      `/tenants/${tenantId}/grants`,
      { tenantId },
      {
        units: 3,
        rule: "per-caller",
        tier: "pro",
      },
    );
    expect(res.status).toBe(201);
    await reload(tenantId);
    expect(limitOf(tenantId, { subject: "x", tier: "pro" })).toBe(4);
    const audit = await admin(routes.audit, "GET", `/audit?tenantId=${tenantId}`, {});
    const event = (audit.body.events ?? audit.body)[0];
    expect(event).toMatchObject({ action: "tenant.grant", target: `tenant:${tenantId}` });
    expect(event.after).toMatchObject({ id: res.body.id, tier: "pro", units: 3 });
    const revert = await admin(routes.auditRevert, "POST", `/audit/${event.id}/revert`, { auditId: event.id });
    expect(revert.status, JSON.stringify(revert.body)).toBe(200);
    await reload(tenantId);
    expect(limitOf(tenantId, { subject: "x", tier: "pro" })).toBe(1);
    const list = await admin(routes.tenantGrants, "GET", `/tenants/${tenantId}/grants`, { tenantId });
    expect(list.body).toEqual([]);
    const again = await admin(routes.auditRevert, "POST", `/audit/${event.id}/revert`, { auditId: event.id });
    expect(again.status).toBe(409);

    const other = await admin(
      routes.tenantGrants,
      "POST",
      `/tenants/${tenantId}/grants`,
      { tenantId },
      {
        units: 2,
        subject: "x",
      },
    );
    await reload(tenantId);
    expect(limitOf(tenantId, { subject: "x" })).toBe(3);
    const params = { tenantId, grantId: other.body.id };
    const gone = await admin(routes.tenantGrant, "DELETE", `/tenants/${tenantId}/grants/${other.body.id}`, params);
    expect(gone.status).toBe(204);
    await reload(tenantId);
    expect(limitOf(tenantId, { subject: "x" })).toBe(1);
    const twice = await admin(routes.tenantGrant, "DELETE", `/tenants/${tenantId}/grants/${other.body.id}`, params);
    expect(twice.status).toBe(404);
  });

  it("refuses invalid grants with 422 naming the field", async () => {
    const tenantId = await newTenant(1);
    expect(
      (
        await admin(routes.tierRules, "PUT", `/tenants/${tenantId}/tiers/gold/rules`, { tenantId, tier: "gold" }, [
          { name: "gold-only", algorithm: "fixed_window", limit: 5, windowMs: 60_000 },
        ])
      ).status,
    ).toBe(200);
    const post = (body: unknown) =>
      admin(routes.tenantGrants, "POST", `/tenants/${tenantId}/grants`, { tenantId }, body);
    for (const [body, field] of [
      [{ units: 1 }, "subject"],
      [{ units: 1, subject: "a", tier: "pro" }, "tier"],
      [{ units: 1, subject: "" }, "subject"],
      [{ units: 1, tier: "Not A Tier" }, "tier"],
      [{ units: 0, subject: "a" }, "units"],
      [{ units: 1, subject: "a", rule: "total" }, "rule"], // a tenant-scoped rule
      [{ units: 1, tier: "pro", rule: "gold-only" }, "rule"], // another tier's rule
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    // A subject may carry any tier: another tier's rule is one it can meet.
    expect((await post({ units: 1, subject: "a", rule: "gold-only" })).status).toBe(201);
    expect((await post({ units: 1, tier: "gold", rule: "gold-only" })).status).toBe(201);
  });
});
