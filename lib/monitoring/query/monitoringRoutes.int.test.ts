/**
 * The monitoring admin routes, called as route handlers (no server) against the test database and
 * the shared Redis under this file's own prefix. Real traffic goes through the /api/v1/echo handler
 * (admit → limiter → recorder), is flushed (test/support/monitoringRoutesBed.ts), and is read back
 * through GET /api/admin/monitoring/{traffic,refusal-rate,hot-keys,near-limit}: 401 without
 * credentials, 200 shapes and numbers, 422 on bad parameters, 404 on unknown names. A key's recent
 * decisions: keyDecisionsRoute.int.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/support/routeCall";
import { monitoringRoutesBed, type SeededKey } from "@/test/support/monitoringRoutesBed";

const bed = await monitoringRoutesBed("monroutes");
const { traffic, refusalRate, hotKeys, hotDescriptors, nearLimit, keyDecisions: decisions } = bed.routes;
const { admin } = bed;
let tenantId = "";
let key1: SeededKey;
let key2: SeededKey;
beforeAll(() => ({ tenantId, key1, key2 } = bed.seeded()));

const sum = (points: { allowed: number; refused: number; shadowRefused: number }[]) =>
  points.reduce((s, p) => [s[0]! + p.allowed, s[1]! + p.refused, s[2]! + p.shadowRefused], [0, 0, 0]);

describe("401 without credentials", () => {
  it("every monitoring route and the decisions route refuse a missing or wrong token", async () => {
    for (const [handler, params] of [
      [traffic, {}],
      [refusalRate, {}],
      [hotKeys, {}],
      [hotDescriptors, {}],
      [nearLimit, {}],
      [decisions, { keyId: "AAAAAAAA" }],
    ] as const) {
      for (const headers of [{}, { authorization: "Bearer wrong" }] as Record<string, string>[]) {
        const res = await callRoute(handler.GET, { headers, params });
        expect(res.status).toBe(401);
      }
    }
  });
});

describe("GET /api/admin/monitoring/traffic", () => {
  it("200: the tenant's series with allowed, refused and shadow-refused apart", async () => {
    const res = await admin(traffic, { path: `/api/admin/monitoring/traffic?tenantId=${tenantId}` });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      "current",
      "fromMs",
      "points",
      "rule",
      "source",
      "stepMs",
      "tenantId",
      "toMs",
    ]);
    expect(res.body).toMatchObject({ tenantId, rule: null, stepMs: 30_000, source: "second" });
    expect(res.body.points).toHaveLength(11);
    expect(Object.keys(res.body.points[0]).sort()).toEqual(["allowed", "refused", "shadowRefused", "t"]);
    expect(sum(res.body.points)).toEqual([4, 3, 2]);
  });

  it("200: one rule's series, a shadow rule's would-refusals apart from refusals", async () => {
    const shadow = await admin(traffic, {
      path: `/api/admin/monitoring/traffic?tenantId=${tenantId}&rule=trial&range=1h`,
    });
    expect(shadow.status).toBe(200);
    expect(shadow.body.rule).toEqual({ ref: expect.any(String), name: "trial", mode: "shadow" });
    expect(shadow.body.source).toBe("minute");
    expect(sum(shadow.body.points)).toEqual([2, 0, 5]);
    const enforce = await admin(traffic, { path: `/api/admin/monitoring/traffic?tenantId=${tenantId}&rule=per-key` });
    expect(sum(enforce.body.points)).toEqual([4, 3, 0]);
  });

  it("422 on bad parameters, naming them; 404 on a rule the tenant never had", async () => {
    for (const [query, field] of [
      ["range=2h", "range"],
      ["from=abc", "from"],
      ["step=10", "step"],
      ["tenantId=bad", "tenantId"],
      ["rule=per-key", "rule"],
      ["bogus=1", "bogus"],
    ]) {
      const res = await admin(traffic, { path: `/api/admin/monitoring/traffic?${query}` });
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.detail).toContain(`(${field}: `);
    }
    const missing = await admin(traffic, { path: `/api/admin/monitoring/traffic?tenantId=${tenantId}&rule=nope` });
    expect(missing.status).toBe(404);
  });
});

describe("GET /api/admin/monitoring/refusal-rate", () => {
  it("200: per tenant and per rule lines with counts and percentages", async () => {
    const res = await admin(refusalRate, { path: `/api/admin/monitoring/refusal-rate?tenantId=${tenantId}` });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["byRule", "byTenant", "fromMs", "source", "stepMs", "toMs"]);
    expect(res.body.byTenant).toHaveLength(1);
    const [line] = res.body.byTenant;
    expect(line).toMatchObject({ tenantId, tenantName: expect.stringContaining("monitoring-routes-"), rule: null });
    expect(line.total).toEqual({
      allowed: 4,
      refused: 3,
      shadowRefused: 2,
      requests: 7,
      refusedPct: 300 / 7,
      shadowRefusedPct: 200 / 7,
    });
    expect(res.body.byRule.map((l: { rule: { name: string } }) => l.rule.name).sort()).toEqual(["per-key", "trial"]);
  });

  it("422 on a limit out of range", async () => {
    const res = await admin(refusalRate, { path: "/api/admin/monitoring/refusal-rate?limit=51" });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ limit: ["limit must be at most 50"] });
  });
});

describe("GET /api/admin/monitoring/hot-descriptors", () => {
  it("200: a tenant without Envoy calls has none; the query's parameters are checked like hot keys'", async () => {
    const res = await admin(hotDescriptors, { path: `/api/admin/monitoring/hot-descriptors?tenantId=${tenantId}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fromMs: expect.any(Number),
      toMs: expect.any(Number),
      resolution: "minute",
      descriptors: [],
    });
    const bad = await admin(hotDescriptors, { path: "/api/admin/monitoring/hot-descriptors?limit=101" });
    expect(bad.status).toBe(422);
  });
});

describe("GET /api/admin/monitoring/hot-keys", () => {
  it("200: the busiest key first, with its refusals, the rule that refused it and its name as text", async () => {
    const res = await admin(hotKeys, { path: `/api/admin/monitoring/hot-keys?tenantId=${tenantId}` });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["fromMs", "keys", "resolution", "toMs"]);
    expect(res.body.keys).toEqual([
      {
        tenantId,
        tenantName: expect.any(String),
        keyId: key1.id,
        keyName: "busy <b>key</b>",
        kind: "key",
        caller: key1.id,
        requests: 6,
        refused: 3,
        lastRefusedPeriodMs: expect.any(Number),
        topRule: { ref: expect.any(String), name: "per-key", mode: "enforce", refused: 3 },
      },
      {
        tenantId,
        tenantName: expect.any(String),
        keyId: key2.id,
        keyName: "quiet key",
        kind: "key",
        caller: key2.id,
        requests: 1,
        refused: 0,
        lastRefusedPeriodMs: null,
        topRule: null,
      },
    ]);
    const global = await admin(hotKeys, { path: "/api/admin/monitoring/hot-keys?limit=100" });
    expect(global.status).toBe(200);
    expect(global.body.keys.map((k: { keyId: string }) => k.keyId)).toEqual(expect.arrayContaining([key1.id, key2.id]));
  });

  it("422 on a limit over 100", async () => {
    const res = await admin(hotKeys, { path: "/api/admin/monitoring/hot-keys?limit=101" });
    expect(res.status).toBe(422);
  });
});

describe("GET /api/admin/monitoring/near-limit", () => {
  it("200: the refused key at 0, the other with what it has left", async () => {
    const res = await admin(nearLimit, { path: `/api/admin/monitoring/near-limit?tenantId=${tenantId}` });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["clients", "fromMs", "resolution", "toMs"]);
    expect(
      res.body.clients.map(
        (c: { keyId: string; remaining: number; capacity: number; fraction: number; rule: { name: string } }) => [
          c.keyId,
          c.rule.name,
          c.capacity,
          c.remaining,
          c.fraction,
        ],
      ),
    ).toEqual([
      [key1.id, "per-key", 3, 0, 0],
      [key2.id, "per-key", 3, 2, 0.666667], // fractions are stored to 1e-6
    ]);
  });

  it("422 when both range and from are given", async () => {
    const res = await admin(nearLimit, { path: `/api/admin/monitoring/near-limit?range=1h&from=${Date.now() - 1000}` });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ from: ["give either range or from, not both"] });
  });
});
