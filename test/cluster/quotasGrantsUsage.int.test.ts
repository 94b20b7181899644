/**
 * Issue 33 "Done when": calendar quotas, grants and usage on two instances, first on one Redis,
 * then on a Redis Cluster (3 masters started by the test from redis-server on loopback ports,
 * test/support/redisCluster.ts, stopped after it). Two instances in this process, each as
 * `npm start` wires one (lib/runtime/dataPlaneServices.ts): its own Redis (or Cluster) client,
 * limiter, access cache over Postgres and change subscription, and its own monitoring recorder and
 * usage roll-up. No build needed. Shown:
 * - a calendar-month rule counts across both instances (one counter), and on the Cluster all of a
 *   tenant's counters, calendar and windowed, sit in one slot (hash-tagged), so one script call
 *   decides them all;
 * - a grant made through one instance (saved, reloaded there, the change notice published) is in
 *   force on the other within 1 s: a key's, a JWT subject's and a tier's;
 * - the usage roll-up, run by both instances at once, totals exactly what the two admitted and refused.
 */
import { randomBytes } from "node:crypto";
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { adminCaller, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";
import { startRedisCluster, type RedisClusterHandle } from "@/test/support/redisCluster";
import { msUntil, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { REDIS_URL } from "@/test/support/testRedis";

const { prefix, auth, close } = routeTestEnv("qgu");
const routes = await loadRoutes("tenants", "tenantKeys", "tenantRules");
const { AccessCache } = await import("@/lib/policy/compiled/accessCache");
const { prismaAccessLoader } = await import("@/lib/policy/compiled/accessLoader");
const { createLimiter } = await import("@/lib/limiter/decide");
const { createRedisClient } = await import("@/lib/redis/connect");
const { publishChange, subscribeChanges } = await import("@/lib/policy/changes/changeBus");
const { createGrant } = await import("@/lib/control/admin/grantService");
const { createCallerGrant } = await import("@/lib/control/admin/callerGrantService");
const { DecisionRecorder } = await import("@/lib/monitoring/record/decisionRecorder");
const { UsageRollup } = await import("@/lib/monitoring/usage/usageRollup");
const { queryUsage } = await import("@/lib/monitoring/usage/usageQuery");
const { getDb } = await import("@/lib/db/client");
const { JWT_SUBJECT_MARK } = await import("@/lib/dataplane/admission/hostCaller");

/** The contract's bound: a change is in force on every instance within 1 s of the answer. */
const PROPAGATION_LIMIT_MS = 1_000;
const GIVE_UP_MS = 10_000;
const DAY_MS = 86_400_000;
const admin = adminCaller(auth);
const actor = { id: "token", role: "admin" as const };
const created: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

type Instance = Awaited<ReturnType<typeof startInstance>>;

/** One instance on `url` (a Cluster when `cluster`), subscribed to change notices under `redisPrefix`. */
async function startInstance(url: string, cluster: boolean, redisPrefix: string) {
  const redis = createRedisClient({ url, cluster, timeoutMs: 2000, autoPipelining: false });
  const access = new AccessCache(prismaAccessLoader);
  await access.ready();
  let subscribed!: () => void;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  const subscription = subscribeChanges(redis, redisPrefix, {
    onChange: (tenantId) => void access.tenantChanged(tenantId).catch(() => undefined),
    onSubscribed: () => subscribed(),
  });
  await ready;
  const limiter = createLimiter({ redis, prefix: redisPrefix, timeoutMs: 2000 });
  const recorder = new DecisionRecorder({ redis, prefix: redisPrefix, log: () => undefined });
  return {
    redis,
    access,
    limiter,
    recorder,
    /** What the admin API does after a change: reload here, then tell the others. */
    announce: async (tenantId: string) => {
      await access.tenantChanged(tenantId);
      await publishChange(redis, redisPrefix, tenantId);
    },
    stop: async () => {
      await subscription.close();
      redis.disconnect();
    },
  };
}

async function tenantWithKeys(keys: { tier?: string }[]): Promise<{ tenantId: string; keyIds: string[] }> {
  const t = await admin(routes.tenants, "POST", "/tenants", {}, { name: `qgu-${randomBytes(4).toString("hex")}` });
  const tenantId = t.body.id as string;
  created.push(tenantId);
  const rules = [
    { name: "monthly", algorithm: "fixed_window", limit: 5, period: "month", timeZone: "Europe/Berlin" },
    { name: "per-minute", algorithm: "sliding_window", limit: 1000, windowMs: 60_000 },
    { name: "tenant-total", scope: "tenant", limit: 10_000, windowMs: 3_600_000 },
  ];
  expect((await admin(routes.tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, rules)).status).toBe(200);
  const keyIds: string[] = [];
  for (const body of keys)
    keyIds.push(
      (await admin(routes.tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "k", ...body })).body
        .id,
    );
  return { tenantId, keyIds };
}

type Caller = { keyId: string } | { subject: string; tier?: string };

/** One request of `caller` on `instance`, decided and recorded as admission and its edge do. */
async function call(instance: Instance, tenantId: string, caller: Caller): Promise<boolean> {
  const rules =
    "keyId" in caller
      ? instance.access.rulesFor(tenantId, { key: instance.access.liveKey(caller.keyId)! })
      : instance.access.rulesFor(tenantId, caller);
  const keyId = "keyId" in caller ? caller.keyId : JWT_SUBJECT_MARK + caller.subject;
  const limiters = rules.map((r) => r.limiter);
  const decision = await instance.limiter.decide(limiters, { tenantId, keyId });
  expect(decision.results.every((r) => r.source === "redis")).toBe(true);
  instance.recorder.recordRequest({
    tenantId,
    ...("keyId" in caller ? { keyId } : {}),
    decision,
    method: "GET",
    path: "/things",
  });
  return decision.allowed;
}

const monthlyLimit = (instance: Instance, tenantId: string, caller: Caller) =>
  ("keyId" in caller
    ? instance.access.rulesFor(tenantId, { key: instance.access.liveKey(caller.keyId)! })
    : instance.access.rulesFor(tenantId, caller)
  ).find((r) => r.rule.name === "monthly")!.limiter.limit;

describe.each([
  ["one Redis", false],
  ["a Redis Cluster", true],
] as const)("two instances on %s", (_name, onCluster) => {
  let cluster: RedisClusterHandle | undefined;
  let a: Instance;
  let b: Instance;
  const redisPrefix = `${prefix}${onCluster ? "c" : "s"}:`;

  beforeAll(async () => {
    if (onCluster) cluster = await startRedisCluster({ masters: 3 });
    const url = cluster?.url ?? REDIS_URL;
    a = await startInstance(url, onCluster, redisPrefix);
    b = await startInstance(url, onCluster, redisPrefix);
  }, 120_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await cluster?.stop();
  });

  it("a calendar-month rule counts across both instances, its counters in one slot", async () => {
    const { tenantId, keyIds } = await tenantWithKeys([{}]);
    await Promise.all([a.access.tenantChanged(tenantId), b.access.tenantChanged(tenantId)]);
    const key = { keyId: keyIds[0]! };
    const outcomes = [];
    for (let i = 0; i < 7; i++) outcomes.push(await call(i % 2 ? b : a, tenantId, key));
    expect(outcomes).toEqual([true, true, true, true, true, false, false]);
    if (cluster) {
      const masters = (a.redis as unknown as Cluster).nodes("master");
      const keys = (await Promise.all(masters.map((m) => m.keys(`${redisPrefix}*${tenantId}*`)))).flat();
      // The key's subject key (the month's and the minute's counters) and the tenant's (lib/limiter/keys.ts).
      expect(keys.length).toBeGreaterThanOrEqual(2);
      const slots = await Promise.all(keys.map((k) => (a.redis as unknown as Cluster).cluster("KEYSLOT", k)));
      expect(new Set(slots).size).toBe(1);
    }
  });

  it("a grant made through one instance is in force on the other within 1 s: a key's, a subject's, a tier's", async () => {
    const { tenantId, keyIds } = await tenantWithKeys([{}, { tier: "pro" }]);
    await Promise.all([a.access.tenantChanged(tenantId), b.access.tenantChanged(tenantId)]);
    const [plain, pro] = [{ keyId: keyIds[0]! }, { keyId: keyIds[1]! }];
    const jwt = { subject: "user-7" };

    const grants: [Caller, () => Promise<unknown>][] = [
      [plain, () => createGrant(actor, plain.keyId, { units: 3, rule: "monthly" })],
      [jwt, () => createCallerGrant(actor, tenantId, { units: 4, subject: jwt.subject })],
      [pro, () => createCallerGrant(actor, tenantId, { units: 2, tier: "pro" })],
    ];
    const raised = [8, 9, 7];
    for (const [i, [caller, grant]] of grants.entries()) {
      expect(monthlyLimit(b, tenantId, caller)).toBe(5);
      await grant();
      await a.announce(tenantId);
      expect(monthlyLimit(a, tenantId, caller)).toBe(raised[i]);
      const elapsed = await msUntil(
        performance.now(),
        async () => monthlyLimit(b, tenantId, caller) === raised[i],
        GIVE_UP_MS,
      );
      expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
    }
    // And B enforces it on the counter A shares: the JWT caller gets 5 + 4, whichever instance.
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await call(i % 2 ? a : b, tenantId, jwt));
    expect(outcomes.filter(Boolean)).toHaveLength(9);
    expect(outcomes.at(-1)).toBe(false);
  });

  it("the usage roll-up, run by both instances at once, totals what the two admitted and refused", async () => {
    const { tenantId, keyIds } = await tenantWithKeys([{}, {}]);
    await Promise.all([a.access.tenantChanged(tenantId), b.access.tenantChanged(tenantId)]);
    let admitted = 0;
    let refused = 0;
    for (let i = 0; i < 16; i++) {
      const ok = await call(i % 2 ? b : a, tenantId, { keyId: keyIds[i % 4 < 2 ? 0 : 1]! });
      if (ok) admitted++;
      else refused++;
    }
    expect([admitted, refused]).toEqual([10, 6]);
    await Promise.all([a.recorder.flush(), b.recorder.flush()]);
    // Clocks two minutes ahead: the minutes just written count as closed.
    const rollup = (instance: Instance) =>
      new UsageRollup({ redis: instance.redis, prefix: redisPrefix, db: getDb, clock: () => Date.now() + 120_000 });
    await Promise.all([rollup(a).runOnce(), rollup(b).runOnce()]);
    const rows = await queryUsage(getDb(), tenantId, {
      from: new Date(Date.now() - DAY_MS),
      to: new Date(Date.now() + DAY_MS),
      granularity: "day",
      groupBy: "key",
    });
    const total = (k?: string) =>
      rows
        .filter((r) => k === undefined || r.key === k)
        .reduce((t, r) => ({ admitted: t.admitted + r.admitted, refused: t.refused + r.refused }), {
          admitted: 0,
          refused: 0,
        });
    expect(total()).toEqual({ admitted, refused });
    expect(total(keyIds[0])).toEqual({ admitted: 5, refused: 3 });
  });
});
