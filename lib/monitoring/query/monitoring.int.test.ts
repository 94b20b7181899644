/**
 * The monitoring queries against the shared local Redis, under this file's own prefix: decisions
 * recorded (with an injected clock) and flushed are read back by every query with the right
 * numbers (allowed, refused and shadow-refused apart, per tenant and per rule), every key written
 * carries its TTL, and hot-key sets stay within their top-K bound. Each test uses tenant ids of its
 * own; the prefix is deleted at the end.
 */
import { afterAll, describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import {
  counts,
  HOUR,
  MIN,
  monitoringTestBed,
  NOW,
  per,
  perRefused,
  req,
  SEC,
  trialPass,
  trialRefuses,
} from "@/test/support/monitoringTestBed";
import { keysByPrefix } from "@/test/support/testRedis";
import { HOT_KEYS_KEPT, monitoringKeys, RETENTION_MS } from "../record/monitoringKeys";

const bed = monitoringTestBed("mon");
const { queries, plain, recorder, newTenant } = bed;
const PREFIX = bed.prefix;

afterAll(() => bed.close());

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
    r.recordRequest(
      req("-anon", undefined, decisionOf([ruleResult({ name: "anonymous", ref: "anon" }, { allowed: false })])),
      SEC + 500,
    );
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
    const day = await queries.trafficSeries({
      fromMs: NOW - 12 * HOUR,
      toMs: NOW + 12 * HOUR,
      stepMs: 5 * MIN,
      tenantId: A,
    });
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
    expect(lineA.total).toMatchObject({
      allowed: 3,
      refused: 1,
      shadowRefused: 1,
      requests: 4,
      refusedPct: 25,
      shadowRefusedPct: 25,
    });
    expect(lineA.points[0]).toMatchObject({ requests: 3, refusedPct: 100 / 3 });
    const ruleLines = rates.byRule.filter((l) => l.tenantId === A);
    expect(
      ruleLines.map((l) => [l.rule?.name, l.rule?.mode, l.total.refused, l.total.shadowRefused, l.total.requests]),
    ).toEqual([
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
    expect(rates.byRule.map((l) => [l.rule?.name, l.total.shadowRefused, l.total.shadowRefusedPct])).toEqual([
      ["trial", 2, (100 * 2) / 3],
    ]);
    expect(rates.byTenant[0]!.total).toMatchObject({ allowed: 2, refused: 1, shadowRefused: 2 });
  });

  it("traffic carries the current counts: the last 10 whole seconds that end 2 s before `to`", async () => {
    const E = newTenant();
    const r = recorder();
    r.recordRequest(req(E, "KeyEEEE1", decisionOf([per])), SEC - 7_000);
    r.recordRequest(req(E, "KeyEEEE1", decisionOf([perRefused])), SEC);
    r.recordRequest(req(E, "KeyEEEE1", decisionOf([per, trialRefuses])), SEC + 2_500);
    // Outside: before the window, and in the 2 s still being flushed.
    r.recordRequest(req(E, "KeyEEEE1", decisionOf([per])), SEC - 7_001);
    r.recordRequest(req(E, "KeyEEEE1", decisionOf([per])), SEC + 3_500);
    await r.flush();
    const series = await queries.trafficSeries({ fromMs: SEC - MIN, toMs: SEC + 5_400, stepMs: 30_000, tenantId: E });
    expect(series.current).toEqual({
      fromMs: SEC - 7_000,
      toMs: SEC + 3_000,
      allowed: 2,
      refused: 1,
      shadowRefused: 1,
    });
  });

  it("upstream health: answers by class, 502 and 504 apart, latency percentiles, within the range", async () => {
    const F = newTenant();
    const r = recorder();
    for (let i = 0; i < 8; i++) r.recordUpstream(F, 200, 20, NOW);
    r.recordUpstream(F, 502, 3, NOW);
    r.recordUpstream(F, 504, 2_600, NOW);
    r.recordUpstream(F, 200, 20, NOW - 20 * MIN); // outside the range
    await r.flush();
    const health = await queries.upstreamHealth({ tenantId: F, fromMs: NOW - 5 * MIN, toMs: NOW + 1_000 });
    expect(health.answers).toBe(10);
    expect(health.byStatus).toEqual({ "2xx": 8, "3xx": 0, "4xx": 0, "5xx": 2, "502": 1, "504": 1 });
    expect(health.latency).toMatchObject({ p50: 25, p90: 25, p99: 5_000 });
  });

  it("a hot key fixed minutes ago says when it was last refused, so it is not taken for one refused now", async () => {
    const D = newTenant();
    const r = recorder();
    r.recordRequest(req(D, "KeyDDDD1", decisionOf([perRefused])), NOW - 3 * MIN);
    r.recordRequest(req(D, "KeyDDDD1", decisionOf([per])), NOW - MIN);
    r.recordRequest(req(D, "KeyDDDD1", decisionOf([per])), NOW);
    await r.flush();
    const hot = await queries.hotKeys({ fromMs: NOW - 5 * MIN, toMs: NOW + 1_000, tenantId: D });
    expect(hot.keys.map((k) => [k.requests, k.refused, k.lastRefusedPeriodMs])).toEqual([
      [3, 1, Math.floor((NOW - 3 * MIN) / MIN) * MIN],
    ]);
  });

  it("hot keys of a tenant and of all tenants: most requests first, refusals and the rule that refused most", async () => {
    await setup;
    const hot = await queries.hotKeys({ fromMs: NOW - MIN, toMs: NOW + MIN, tenantId: A });
    expect(hot.resolution).toBe("minute");
    expect(hot.keys).toEqual([
      {
        tenantId: A,
        tenantName: `name of ${A}`,
        keyId: "KeyAAAA1",
        keyName: "key KeyAAAA1",
        kind: "key",
        caller: "KeyAAAA1",
        requests: 3,
        refused: 1,
        // The minute of the refusal: a client fixed since shows an older one.
        lastRefusedPeriodMs: Math.floor(SEC / MIN) * MIN,
        topRule: { ref: "1", name: "per-key", mode: "enforce", refused: 1 },
      },
      {
        tenantId: A,
        tenantName: `name of ${A}`,
        keyId: "KeyAAAA2",
        keyName: "key KeyAAAA2",
        kind: "key",
        caller: "KeyAAAA2",
        requests: 1,
        refused: 0,
        lastRefusedPeriodMs: null,
        topRule: null,
      },
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
        for (let n = 0; n <= i % 7; n++)
          r.recordRequest(req(T, `K${String(i).padStart(7, "0")}`, decisionOf([per])), NOW);
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
