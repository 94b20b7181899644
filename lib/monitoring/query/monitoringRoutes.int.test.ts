/**
 * The monitoring admin routes and a key's recent decisions, called as route handlers (no server)
 * against the test database and the shared Redis under this file's own prefix. Real traffic goes
 * through the /api/v1/echo handler (admit → limiter → recorder), is flushed, and is read back
 * through GET /api/admin/monitoring/{traffic,refusal-rate,hot-keys,near-limit} and
 * GET /api/admin/keys/{keyId}/decisions: 401 without credentials, 200 shapes and numbers, 422 on
 * bad parameters, 404 on unknown names. Deletes its tenant (keys and rules cascade) and its prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute, type RouteAnswer } from "@/test/support/routeCall";
import { loadRoutes, routeTestEnv, type Routes } from "@/test/support/routeTestEnv";
import { awayFromWindowEdge, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";

const { auth, close } = routeTestEnv("monroutes");
// Loaded after the environment is set: config() reads it once, on first use.
const { tenants, tenantKeys, tenantRules, key, echo, traffic, refusalRate, hotKeys, nearLimit, keyDecisions: decisions } =
  await loadRoutes("tenants", "tenantKeys", "tenantRules", "key", "echo", "traffic", "refusalRate", "hotKeys", "nearLimit", "keyDecisions");
const { services } = await import("@/lib/runtime/services");
let tenantId = "";
let key1: { id: string; key: string };
let key2: { id: string; key: string };

const admin = (handler: Routes, init: { method?: string; path?: string; body?: unknown; params?: Record<string, string> } = {}): Promise<RouteAnswer> =>
  callRoute(handler[init.method ?? "GET"], { ...init, headers: auth });

beforeAll(async () => {
  const tenant = await admin(tenants, { method: "POST", body: { name: `monitoring-routes-${randomBytes(4).toString("hex")}` } });
  expect(tenant.status).toBe(201);
  tenantId = tenant.body.id;
  const rules = await admin(tenantRules, {
    method: "PUT",
    params: { tenantId },
    body: [
      { name: "per-key", algorithm: "fixed_window", limit: 3, windowMs: 60_000 },
      { name: "trial", algorithm: "fixed_window", limit: 1, windowMs: 60_000, mode: "shadow" },
    ],
  });
  expect(rules.status).toBe(200);
  key1 = (await admin(tenantKeys, { method: "POST", params: { tenantId }, body: { name: "busy <b>key</b>" } })).body;
  key2 = (await admin(tenantKeys, { method: "POST", params: { tenantId }, body: { name: "quiet key" } })).body;

  // Six requests of key 1 inside one fixed window: 3 admitted (the 2nd and 3rd would be refused by
  // the shadow rule), 3 refused by per-key; one request of key 2.
  await awayFromWindowEdge(60_000, 15_000);
  const call = (k: string, method: string, path: string) => callRoute(echo[method], { method, path, headers: { authorization: `Bearer ${k}` } });
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await call(key1.key, "GET", `/api/v1/echo?i=${i}`)).status);
  statuses.push((await call(key1.key, "POST", "/api/v1/echo/a/b?secret=1")).status);
  statuses.push((await call(key2.key, "GET", "/api/v1/echo")).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 200]);
  expect(await services().recorder.drain()).toBe("written");
});

afterAll(async () => {
  await services().recorder.stop();
  await deleteTenants(TEST_DATABASE_URL, tenantId ? [tenantId] : []);
  await close();
});

const sum = (points: { allowed: number; refused: number; shadowRefused: number }[]) =>
  points.reduce((s, p) => [s[0]! + p.allowed, s[1]! + p.refused, s[2]! + p.shadowRefused], [0, 0, 0]);

describe("401 without credentials", () => {
  it("every monitoring route and the decisions route refuse a missing or wrong token", async () => {
    for (const [handler, params] of [
      [traffic, {}],
      [refusalRate, {}],
      [hotKeys, {}],
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
    expect(Object.keys(res.body).sort()).toEqual(["fromMs", "points", "rule", "source", "stepMs", "tenantId", "toMs"]);
    expect(res.body).toMatchObject({ tenantId, rule: null, stepMs: 5_000, source: "second" });
    expect(res.body.points).toHaveLength(61);
    expect(Object.keys(res.body.points[0]).sort()).toEqual(["allowed", "refused", "shadowRefused", "t"]);
    expect(sum(res.body.points)).toEqual([4, 3, 2]);
  });

  it("200: one rule's series, a shadow rule's would-refusals apart from refusals", async () => {
    const shadow = await admin(traffic, { path: `/api/admin/monitoring/traffic?tenantId=${tenantId}&rule=trial&range=1h` });
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
    expect(line.total).toEqual({ allowed: 4, refused: 3, shadowRefused: 2, requests: 7, refusedPct: 300 / 7, shadowRefusedPct: 200 / 7 });
    expect(res.body.byRule.map((l: { rule: { name: string } }) => l.rule.name).sort()).toEqual(["per-key", "trial"]);
  });

  it("422 on a limit out of range", async () => {
    const res = await admin(refusalRate, { path: "/api/admin/monitoring/refusal-rate?limit=51" });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ limit: ["limit must be at most 50"] });
  });
});

describe("GET /api/admin/monitoring/hot-keys", () => {
  it("200: the busiest key first, with its refusals, the rule that refused it and its name as text", async () => {
    const res = await admin(hotKeys, { path: `/api/admin/monitoring/hot-keys?tenantId=${tenantId}` });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["fromMs", "keys", "resolution", "toMs"]);
    expect(res.body.keys).toEqual([
      { tenantId, tenantName: expect.any(String), keyId: key1.id, keyName: "busy <b>key</b>", requests: 6, refused: 3, topRule: { ref: expect.any(String), name: "per-key", mode: "enforce", refused: 3 } },
      { tenantId, tenantName: expect.any(String), keyId: key2.id, keyName: "quiet key", requests: 1, refused: 0, topRule: null },
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
    expect(res.body.clients.map((c: { keyId: string; remaining: number; capacity: number; fraction: number; rule: { name: string } }) => [c.keyId, c.rule.name, c.capacity, c.remaining, c.fraction])).toEqual([
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

describe("GET /api/admin/keys/{keyId}/decisions", () => {
  const path = (keyId: string, query = "") => `/api/admin/keys/${keyId}/decisions${query}`;

  it("200: the key's decisions newest first: method, path without query, verdict, shadow rules, remaining", async () => {
    const res = await admin(decisions, { path: path(key1.id), params: { keyId: key1.id } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["decisions"]);
    const list = res.body.decisions;
    expect(list).toHaveLength(6);
    expect(list[0]).toEqual({ atMs: expect.any(Number), method: "POST", path: "/api/v1/echo/a/b", allowed: false, unavailable: false, shadowRefused: ["trial"], refusedBy: "per-key", remaining: 0 });
    expect(list[5]).toEqual({ atMs: expect.any(Number), method: "GET", path: "/api/v1/echo", allowed: true, unavailable: false, shadowRefused: [], refusedBy: null, remaining: 2 });
    expect(list.map((d: { allowed: boolean }) => d.allowed)).toEqual([false, false, false, true, true, true]);
    expect(list[4]).toMatchObject({ allowed: true, shadowRefused: ["trial"], remaining: 1 });
    const times = list.map((d: { atMs: number }) => d.atMs);
    expect(times).toEqual([...times].sort((x: number, y: number) => y - x));
  });

  it("?limit= caps the list; out of range or unknown parameters are 422", async () => {
    const two = await admin(decisions, { path: path(key1.id, "?limit=2"), params: { keyId: key1.id } });
    expect(two.status).toBe(200);
    expect(two.body.decisions).toHaveLength(2);
    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=51", "limit"],
      ["?limit=abc", "limit"],
      ["?range=1h", "range"],
    ]) {
      const res = await admin(decisions, { path: path(key1.id, query), params: { keyId: key1.id } });
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });

  it("404 for an unknown or malformed key id; a revoked key keeps its decisions", async () => {
    for (const keyId of ["ZZZZZZZZ", "not-an-id"]) {
      const res = await admin(decisions, { path: path(keyId), params: { keyId } });
      expect(res.status, keyId).toBe(404);
    }
    const revoked = await admin(key, { method: "DELETE", params: { keyId: key2.id } });
    expect(revoked.status).toBe(204);
    const res = await admin(decisions, { path: path(key2.id), params: { keyId: key2.id } });
    expect(res.status).toBe(200);
    expect(res.body.decisions).toHaveLength(1);
  });

  it("405 for other methods", async () => {
    const res = await admin(decisions, { method: "POST", path: path(key1.id), params: { keyId: key1.id } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});
