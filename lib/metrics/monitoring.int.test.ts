/**
 * The monitoring recorder and queries against the shared local Redis, under this file's own prefix:
 * decisions recorded (with an injected clock) and flushed are read back by every query with the
 * right numbers, every key written carries its TTL, several recorders add up, and an outage drops
 * a batch without throwing. Each test uses tenant ids of its own; the prefix is deleted at the end.
 */
import { afterAll, describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { freePort } from "@/test/support/freePort";
import { deleteByPrefix, keysByPrefix, plainRedis, REDIS_URL, uniquePrefix } from "@/test/support/testRedis";
import { AppError } from "../http/errors";
import type { Decision, RuleMode } from "../limiter/types";
import { createRedisClient, type RedisClient } from "../redis/connect";
import { DecisionRecorder, type RecordedRequest } from "./decisionRecorder";
import type { MonitoringDirectory, RuleLabel } from "./monitoringDirectory";
import { HOT_KEYS_KEPT, monitoringKeys, RECENT_DECISIONS_KEPT, RETENTION_MS } from "./monitoringKeys";
import { monitoringQueries, type MonitoringQueries } from "./monitoringQueries";

const PREFIX = uniquePrefix("mon");
const TIMEOUT_MS = 2_000;
const MIN = 60_000;
const HOUR = 3_600_000;
/** An injected clock: 10.5 s into a minute, a few minutes ago (the queries name explicit ranges). */
const NOW = Math.floor(Date.now() / MIN) * MIN - 5 * MIN + 10_500;
const SEC = Math.floor(NOW / 1000) * 1000;

const clients: RedisClient[] = [];
function client(url = REDIS_URL): RedisClient {
  const c = createRedisClient({ url, cluster: false, timeoutMs: TIMEOUT_MS, autoPipelining: false });
  clients.push(c);
  return c;
}
const redis = client();
const plain = plainRedis();

afterAll(async () => {
  await deleteByPrefix(plain, PREFIX);
  plain.disconnect();
  for (const c of clients) c.disconnect();
});

/** Names the tests give their tenants, keys and rules (what the access cache would know). */
const rules: Record<string, { name: string; mode: RuleMode }> = { "1": { name: "per-key", mode: "enforce" }, "2": { name: "burst", mode: "enforce" }, "3": { name: "trial", mode: "shadow" } };
const keyTenants = new Map<string, string>();
const directory: MonitoringDirectory = {
  tenantName: (id) => `name of ${id}`,
  keyName: (_tenantId, keyId) => `key ${keyId}`,
  describeRules: async (_tenantId, refs) => new Map(refs.map((ref): [string, RuleLabel] => [ref, { ref, name: rules[ref]?.name ?? null, mode: rules[ref]?.mode ?? null }])),
  refOf: async (_tenantId, name) => Object.entries(rules).find(([, r]) => r.name === name)?.[0] ?? null,
  keyTenant: async (keyId) => keyTenants.get(keyId) ?? null,
};
const queries: MonitoringQueries = monitoringQueries({ redis, prefix: PREFIX, timeoutMs: TIMEOUT_MS, directory });

function recorder(redisClient: RedisClient = redis, log: (message: string) => void = () => undefined): DecisionRecorder {
  return new DecisionRecorder({ redis: redisClient, prefix: PREFIX, timeoutMs: TIMEOUT_MS, clock: () => NOW, log });
}

let tenantCounter = 0;
/** A tenant id of this test alone (8 base62 characters). */
const newTenant = () => `Tn${String(++tenantCounter).padStart(6, "0")}`;

const per = ruleResult({ name: "per-key", ref: "1", limit: 10 }, { remaining: 5 });
const perRefused = ruleResult({ name: "per-key", ref: "1", limit: 10 }, { allowed: false, remaining: 0 });
const trialPass = ruleResult({ name: "trial", ref: "3", mode: "shadow", limit: 4 });
const trialRefuses = ruleResult({ name: "trial", ref: "3", mode: "shadow", limit: 4 }, { allowed: false, remaining: 0 });

function req(tenantId: string, keyId: string | undefined, decision: Decision | null, path = "/api/v1/echo"): RecordedRequest {
  return { tenantId, keyId, decision, method: "GET", path };
}

const counts = (p: { allowed: number; refused: number; shadowRefused: number } | undefined) => (p ? [p.allowed, p.refused, p.shadowRefused] : undefined);

describe("recording and reading back traffic", () => {
  const A = newTenant();
  const B = newTenant();
  const setup = (async () => {
    const r = recorder();
    // Second SEC: tenant A admits one, refuses one, admits one a shadow rule would refuse.
    r.recordRequest(req(A, "KeyAAAA1", decisionOf([per, trialPass])), SEC);
    r.recordRequest(req(A, "KeyAAAA1", decisionOf([perRefused, trialPass])), SEC + 100);
    r.recordRequest(req(A, "KeyAAAA2", decisionOf([per, trialRefuses])), SEC + 200);
    // Tenant B admits two; an unauthenticated request is refused.
    r.recordRequest(req(B, "KeyBBBB1", decisionOf([per])), SEC + 300);
    r.recordRequest(req(B, "KeyBBBB1", decisionOf([per])), SEC + 400);
    r.recordRequest(req("-anon", undefined, decisionOf([ruleResult({ name: "anonymous", ref: "anon" }, { allowed: false })])), SEC + 500);
    // Second SEC + 1: a request of A no rule matched.
    r.recordRequest(req(A, "KeyAAAA1", null), SEC + 1_000);
    expect(await r.flush()).toBe("written");
  })();

  it("per second: allowed, refused and shadow-refused apart, for all tenants, one tenant and one rule", async () => {
    await setup;
    const range = { fromMs: SEC, toMs: SEC + 2_000, stepMs: 1_000 };
    const all = await queries.trafficSeries(range);
    expect(all.source).toBe("second");
    expect(all.points.map(counts)).toEqual([
      [4, 1, 1],
      [1, 0, 0],
    ]);
    const a = await queries.trafficSeries({ ...range, tenantId: A });
    expect(a.points.map(counts)).toEqual([
      [2, 1, 1],
      [1, 0, 0],
    ]);
    const rule = await queries.trafficSeries({ ...range, tenantId: A, ruleRef: "1" });
    expect(rule.rule).toEqual({ ref: "1", name: "per-key", mode: "enforce" });
    expect(rule.points.map(counts)).toEqual([
      [2, 1, 0],
      [0, 0, 0],
    ]);
    const shadow = await queries.trafficSeries({ ...range, tenantId: A, ruleRef: "3" });
    expect(shadow.rule).toEqual({ ref: "3", name: "trial", mode: "shadow" });
    expect(shadow.points.map(counts)).toEqual([
      [2, 0, 1],
      [0, 0, 0],
    ]);
    const anon = await queries.trafficSeries({ ...range, tenantId: "-anon" });
    expect(anon.points.map(counts)).toEqual([
      [0, 1, 0],
      [0, 0, 0],
    ]);
  });

  it("per minute and per 5 minutes over 24 h read the same numbers from the coarser data", async () => {
    await setup;
    const minute = await queries.trafficSeries({ fromMs: NOW - 10 * MIN, toMs: NOW + 10 * MIN, stepMs: MIN });
    expect(minute.source).toBe("minute");
    // The first bucket starts at the minute holding fromMs (10.5 s before it), hence 21 points.
    expect(minute.fromMs).toBe(Math.floor((NOW - 10 * MIN) / MIN) * MIN);
    expect(minute.points).toHaveLength(21);
    const hit = minute.points.filter((p) => p.allowed + p.refused > 0);
    expect(hit.map((p) => [p.t, ...counts(p)!])).toEqual([[Math.floor(NOW / MIN) * MIN, 5, 1, 1]]);
    const day = await queries.trafficSeries({ fromMs: NOW - 12 * HOUR, toMs: NOW + 12 * HOUR, stepMs: 5 * MIN, tenantId: A });
    expect(day.points).toHaveLength(289);
    expect(day.points.filter((p) => p.allowed + p.refused > 0).map(counts)).toEqual([[3, 1, 1]]);
  });

  it("refusal rates per tenant and per rule, with shadow rules ranked by what they would refuse", async () => {
    await setup;
    const rates = await queries.refusalRate({ fromMs: SEC, toMs: SEC + 2_000, stepMs: 1_000 });
    const ids = rates.byTenant.map((l) => l.tenantId);
    expect(ids).toEqual(expect.arrayContaining([A, B, "-anon"]));
    const lineA = rates.byTenant.find((l) => l.tenantId === A)!;
    expect(lineA.tenantName).toBe(`name of ${A}`);
    expect(lineA.total).toMatchObject({ allowed: 3, refused: 1, shadowRefused: 1, requests: 4, refusedPct: 25, shadowRefusedPct: 25 });
    expect(lineA.points[0]).toMatchObject({ requests: 3, refusedPct: 100 / 3 });
    const ruleLines = rates.byRule.filter((l) => l.tenantId === A);
    expect(ruleLines.map((l) => [l.rule?.name, l.rule?.mode, l.total.refused, l.total.shadowRefused, l.total.requests])).toEqual([
      ["per-key", "enforce", 1, 0, 3],
      ["trial", "shadow", 0, 1, 3],
    ]);
    const onlyA = await queries.refusalRate({ fromMs: SEC, toMs: SEC + 2_000, stepMs: 1_000, tenantId: A, limit: 1 });
    expect(onlyA.byTenant.map((l) => l.tenantId)).toEqual([A]);
    expect(onlyA.byRule).toHaveLength(1);
  });

  it("a shadow rule that would refuse more than an enforce rule refuses ranks first", async () => {
    const C = newTenant();
    const r = recorder();
    r.recordRequest(req(C, "KeyCCCC1", decisionOf([perRefused, trialPass])), SEC);
    r.recordRequest(req(C, "KeyCCCC1", decisionOf([per, trialRefuses])), SEC);
    r.recordRequest(req(C, "KeyCCCC1", decisionOf([per, trialRefuses])), SEC);
    await r.flush();
    const rates = await queries.refusalRate({ fromMs: SEC, toMs: SEC + 1_000, stepMs: 1_000, tenantId: C, limit: 1 });
    expect(rates.byRule.map((l) => [l.rule?.name, l.total.shadowRefused, l.total.shadowRefusedPct])).toEqual([["trial", 2, (100 * 2) / 3]]);
    expect(rates.byTenant[0]!.total).toMatchObject({ allowed: 2, refused: 1, shadowRefused: 2 });
  });

  it("hot keys of a tenant and of all tenants: most requests first, refusals and the rule that refused most", async () => {
    await setup;
    const hot = await queries.hotKeys({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: A });
    expect(hot.resolution).toBe("minute");
    expect(hot.keys).toEqual([
      { tenantId: A, tenantName: `name of ${A}`, keyId: "KeyAAAA1", keyName: "key KeyAAAA1", requests: 3, refused: 1, topRule: { ref: "1", name: "per-key", mode: "enforce", refused: 1 } },
      { tenantId: A, tenantName: `name of ${A}`, keyId: "KeyAAAA2", keyName: "key KeyAAAA2", requests: 1, refused: 0, topRule: null },
    ]);
    const global = await queries.hotKeys({ fromMs: NOW - 2 * HOUR, toMs: NOW + MIN });
    expect(global.resolution).toBe("hour");
    const mine = global.keys.filter((k) => k.tenantId === A || k.tenantId === B).map((k) => [k.keyId, k.requests]);
    expect(mine).toEqual([
      ["KeyAAAA1", 3],
      ["KeyBBBB1", 2],
      ["KeyAAAA2", 1],
    ]);
  });

  it("clients near their limit: lowest remaining fraction first, a refused key at 0", async () => {
    await setup;
    const near = await queries.nearLimit({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: A });
    expect(near.clients.map((c) => [c.keyId, c.rule.name, c.capacity, c.remaining, c.fraction])).toEqual([
      ["KeyAAAA1", "per-key", 10, 0, 0],
      ["KeyAAAA2", "per-key", 10, 5, 0.5],
    ]);
    expect(near.clients[0]!.atMs).toBe(Math.floor(NOW / MIN) * MIN);
  });

  it("gives every key it wrote a TTL of about 24 h", async () => {
    await setup;
    const keys = await keysByPrefix(plain, PREFIX);
    expect(keys.length).toBeGreaterThan(20);
    for (const key of keys) {
      const ttl = await plain.pttl(key);
      expect(ttl, key).toBeGreaterThan(RETENTION_MS - 5 * MIN);
      expect(ttl, key).toBeLessThanOrEqual(RETENTION_MS);
    }
  });
});

describe("bounds", () => {
  it(`hot keys: the stored sets keep the top ${HOT_KEYS_KEPT}, and the query answers them in order`, async () => {
    const T = newTenant();
    const r = recorder();
    // 130 keys; key i makes i % 7 + 1 requests, in two flushes.
    for (const half of [0, 1]) {
      for (let i = half; i < 130; i += 2) {
        for (let n = 0; n <= i % 7; n++) r.recordRequest(req(T, `K${String(i).padStart(7, "0")}`, decisionOf([per])), NOW);
      }
      expect(await r.flush()).toBe("written");
    }
    expect(await plain.zcard(monitoringKeys(PREFIX, T).hotKeys("minute", Math.floor(NOW / MIN)))).toBe(HOT_KEYS_KEPT);
    const hot = await queries.hotKeys({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: T, limit: 100 });
    expect(hot.keys).toHaveLength(100);
    const requests = hot.keys.map((k) => k.requests);
    expect(requests).toEqual([...requests].sort((x, y) => y - x));
    // The heavy hitters are all there: every key with 7 requests (i % 7 == 6: 18 of them).
    expect(hot.keys.filter((k) => k.requests === 7)).toHaveLength(18);
    const limited = await queries.hotKeys({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: T, limit: 3 });
    expect(limited.keys.map((k) => k.requests)).toEqual([7, 7, 7]);
  });
});

describe("recent decisions of a key", () => {
  it(`keeps the last ${RECENT_DECISIONS_KEPT}, newest first, with method, path and verdict; expires in 24 h`, async () => {
    const T = newTenant();
    keyTenants.set("KeyRcnt1", T);
    const r = recorder();
    for (let i = 0; i < 40; i++) r.recordRequest(req(T, "KeyRcnt1", decisionOf([per]), `/api/v1/echo/${i}`), NOW + i);
    expect(await r.flush()).toBe("written");
    for (let i = 40; i < 60; i++) r.recordRequest(req(T, "KeyRcnt1", decisionOf([perRefused, trialRefuses]), `/api/v1/echo/${i}`), NOW + i);
    expect(await r.flush()).toBe("written");

    const key = monitoringKeys(PREFIX, T).recent("KeyRcnt1");
    expect(await plain.llen(key)).toBe(RECENT_DECISIONS_KEPT);
    expect(await plain.pttl(key)).toBeGreaterThan(RETENTION_MS - 5 * MIN);

    const { decisions } = await queries.recentDecisions({ keyId: "KeyRcnt1" });
    expect(decisions).toHaveLength(RECENT_DECISIONS_KEPT);
    expect(decisions[0]).toEqual({ atMs: NOW + 59, method: "GET", path: "/api/v1/echo/59", allowed: false, unavailable: false, shadowRefused: ["trial"], refusedBy: "per-key", remaining: 0 });
    expect(decisions.at(-1)).toMatchObject({ atMs: NOW + 10, path: "/api/v1/echo/10", allowed: true, shadowRefused: [], refusedBy: null, remaining: 5 });
    expect(decisions.map((d) => d.atMs)).toEqual([...decisions.map((d) => d.atMs)].sort((x, y) => y - x));

    const five = await queries.recentDecisions({ keyId: "KeyRcnt1", limit: 5 });
    expect(five.decisions.map((d) => d.atMs)).toEqual([59, 58, 57, 56, 55].map((i) => NOW + i));
  });

  it("merges the lists of several instances by time; a key without decisions has none; an unknown key is a 404", async () => {
    const T = newTenant();
    keyTenants.set("KeyRcnt2", T);
    keyTenants.set("KeyQuiet", T);
    const one = recorder();
    const two = recorder();
    one.recordRequest(req(T, "KeyRcnt2", null, "/one/a"), NOW + 1);
    one.recordRequest(req(T, "KeyRcnt2", null, "/one/b"), NOW + 3);
    two.recordRequest(req(T, "KeyRcnt2", null, "/two/a"), NOW + 2);
    await one.flush();
    await two.flush();
    expect((await queries.recentDecisions({ keyId: "KeyRcnt2" })).decisions.map((d) => d.path)).toEqual(["/one/b", "/two/a", "/one/a"]);
    expect(await queries.recentDecisions({ keyId: "KeyQuiet" })).toEqual({ decisions: [] });
    await expect(queries.recentDecisions({ keyId: "KeyNone0" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("several recorders", () => {
  it("add up: counts, hot keys and refusals sum; near-limit keeps the lowest", async () => {
    const T = newTenant();
    const recorders = [recorder(), recorder(), recorder()];
    recorders.forEach((r, i) => {
      r.recordRequest(req(T, "KeyMulti", decisionOf([ruleResult({ name: "per-key", ref: "1", limit: 10 }, { remaining: 8 - i })])), SEC);
      r.recordRequest(req(T, "KeyMulti", decisionOf([perRefused])), SEC + 10);
    });
    expect(await Promise.all(recorders.map((r) => r.flush()))).toEqual(["written", "written", "written"]);
    const series = await queries.trafficSeries({ fromMs: SEC, toMs: SEC + 1_000, stepMs: 1_000, tenantId: T });
    expect(series.points.map(counts)).toEqual([[3, 3, 0]]);
    const hot = await queries.hotKeys({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: T });
    expect(hot.keys).toMatchObject([{ keyId: "KeyMulti", requests: 6, refused: 3, topRule: { name: "per-key", refused: 3 } }]);
    const near = await queries.nearLimit({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: T });
    expect(near.clients.map((c) => c.fraction)).toEqual([0]);
  });
});

describe("Redis outage", () => {
  it("a flush to an unreachable Redis drops its batch without throwing, logged once per outage", async () => {
    const port = await freePort();
    const down = client(`redis://127.0.0.1:${port}`);
    const logged: string[] = [];
    const r = recorder(down, (message) => logged.push(message));
    const T = newTenant();
    r.recordRequest(req(T, "KeyDown1", decisionOf([per])), NOW);
    expect(r.pendingSize()).toBeGreaterThan(0);
    await expect(r.flush()).resolves.toBe("failed");
    expect(r.pendingSize()).toBe(0);
    r.recordRequest(req(T, "KeyDown1", decisionOf([per])), NOW);
    await expect(r.flush()).resolves.toBe("failed");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("dropping it");
    expect(await r.flush()).toBe("empty");
    await r.stop();
  });

  it("queries answer 503 (limiter_unavailable) when Redis cannot answer", async () => {
    const port = await freePort();
    const down = monitoringQueries({ redis: client(`redis://127.0.0.1:${port}`), prefix: PREFIX, timeoutMs: 500, directory });
    keyTenants.set("KeyDown2", "TnDown00");
    const range = { fromMs: NOW - MIN, toMs: NOW };
    for (const call of [
      () => down.trafficSeries({ ...range, stepMs: 5_000 }),
      () => down.refusalRate({ ...range, stepMs: 5_000 }),
      () => down.hotKeys(range),
      () => down.nearLimit(range),
      () => down.recentDecisions({ keyId: "KeyDown2" }),
    ]) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(503);
      expect((error as AppError).code).toBe("limiter_unavailable");
    }
  });

  it("stop() writes what is still pending", async () => {
    const T = newTenant();
    keyTenants.set("KeyStop1", T);
    const r = recorder();
    r.recordRequest(req(T, "KeyStop1", null, "/last"), NOW);
    await r.stop();
    expect((await queries.recentDecisions({ keyId: "KeyStop1" })).decisions.map((d) => d.path)).toEqual(["/last"]);
  });
});
