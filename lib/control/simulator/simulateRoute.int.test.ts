/**
 * POST /api/admin/tenants/{tenantId}/simulate through its route handler (no server), on a trace
 * recorded by real enforcement (test/support/simulationTrace.ts), grouped by status: 200 (the
 * documented shape, clipping, an empty range, the run's key space gone afterwards), 401/403, 404,
 * 422 (per-field errors for bad rules and a bad range). Deletes its tenant, operators and prefix.
 */
import { randomBytes } from "node:crypto";
import { metrics } from "@/lib/monitoring/prometheus/metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute, ORIGIN, sessionCookieOf, type RouteAnswer } from "@/test/support/routeCall";
import { loadRoutes, routeTestEnv, type Routes } from "@/test/support/routeTestEnv";
import { CURRENT_RULES, PLAN, recordTrace, type RecordedTrace } from "@/test/support/simulationTrace";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { keysByPrefix, plainRedis } from "@/test/support/testRedis";

// The trace must hold Redis's decisions: on a machine loaded enough to starve this process, the
// limiter's 100 ms budget runs out and rules fail open (live admits what Redis would refuse), and
// the replay, which never fails open, would rightly differ. Pinned: a budget no loaded run misses.
process.env.SLUICE_REDIS_TIMEOUT_MS = "5000";
const { auth, prefix, close } = routeTestEnv("simroute");
// Loaded after the environment is set: config() reads it once, on first use.
const routes = await loadRoutes("tenants", "tenantKeys", "tenantRules", "keyRules", "echo", "simulate", "login");
const { services } = await import("@/lib/runtime/services");
const db = await import("@/lib/db/client");
const { hashPassword } = await import("@/lib/control/auth/passwordHash");
const redis = plainRedis();
const operatorIds: string[] = [];
let trace: RecordedTrace;

const admin = (
  handler: Routes,
  init: { method?: string; path?: string; body?: unknown; params?: Record<string, string> } = {},
): Promise<RouteAnswer> => callRoute(handler[init.method ?? "GET"], { ...init, headers: auth });

const simulate = (body: unknown, { tenantId = trace.tenantId, headers = auth as Record<string, string> } = {}) =>
  callRoute(routes.simulate.POST, {
    method: "POST",
    path: `/api/admin/tenants/${tenantId}/simulate`,
    params: { tenantId },
    body,
    headers,
  });

const range = () => ({ fromMs: trace.startedMs - 60_000, toMs: trace.endedMs + 1_000 });

beforeAll(async () => {
  await redis.connect();
  trace = await recordTrace(admin, routes, () => services().recorder.drain());
});

afterAll(async () => {
  await services().recorder.stop();
  await db.getDb().operator.deleteMany({ where: { id: { in: operatorIds } } });
  await deleteTenants(TEST_DATABASE_URL, trace?.tenantId ? [trace.tenantId] : []);
  redis.disconnect();
  await close();
});

describe("200", () => {
  it("answers the documented shape, the range clipped to what is recorded", async () => {
    const res = await simulate({ rules: CURRENT_RULES, ...range() });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      "candidate",
      "current",
      "fromMs",
      "newlyRefused",
      "notSimulated",
      "recordedFromMs",
      "requests",
      "tenantId",
      "toMs",
      "truncated",
    ]);
    const { body } = res;
    expect(body.tenantId).toBe(trace.tenantId);
    expect(body.requests).toBe(PLAN.length);
    expect(body.truncated).toBe(false);
    // The range started a minute before the first request: it is clipped to the oldest recorded one.
    expect(body.recordedFromMs).toBeGreaterThanOrEqual(trace.startedMs - 1_000);
    expect(body.fromMs).toBe(body.recordedFromMs);
    expect(body.toMs).toBeLessThanOrEqual(range().toMs);
    for (const side of [body.current, body.candidate]) {
      expect(Object.keys(side).sort()).toEqual(["allowed", "clientsAffected", "perMinute", "refused"]);
      expect(side.allowed + side.refused).toBe(PLAN.length);
      expect(side.perMinute[0].minuteMs).toBe(Math.floor(body.fromMs / 60_000) * 60_000);
      expect(side.perMinute.at(-1).minuteMs).toBe(Math.floor((body.toMs - 1) / 60_000) * 60_000);
      expect(
        side.perMinute.reduce((n: number, m: { allowed: number; refused: number }) => n + m.allowed + m.refused, 0),
      ).toBe(PLAN.length);
    }
    // The same rules as now: the same figures, nobody newly refused.
    expect(body.candidate).toEqual(body.current);
    expect(body.newlyRefused).toEqual([]);
    expect(body.notSimulated).toEqual([]);
    expect(body.current.refused).toBe(trace.statuses.filter((s) => s === 429).length);
  });

  it("counts its cost in the Prometheus metrics (runs by outcome, requests replayed, run time)", async () => {
    const m = metrics();
    const value = async (
      metric: { get(): Promise<{ values: { value: number; labels: Record<string, unknown>; metricName?: string }[] }> },
      match: (v: { labels: Record<string, unknown>; metricName?: string }) => boolean,
    ) => (await metric.get()).values.filter(match).reduce((n, v) => n + v.value, 0);
    const completed = () => value(m.simulations, (v) => v.labels.outcome === "completed");
    const replayed = () => value(m.simulationRequests, () => true);
    const timed = () => value(m.simulationSeconds, (v) => v.metricName === "sluice_simulation_duration_seconds_count");
    const before = [await completed(), await replayed(), await timed()];
    expect((await simulate({ rules: CURRENT_RULES, ...range() })).status).toBe(200);
    expect([await completed(), await replayed(), await timed()]).toEqual([
      before[0]! + 1,
      before[1]! + PLAN.length,
      before[2]! + 1,
    ]);
  });

  it("lists the clients a tighter candidate newly refuses, by key, with names, most newly refused first", async () => {
    const res = await simulate({
      rules: [{ name: "per-key", algorithm: "fixed_window", limit: 2, windowMs: 60_000 }],
      ...range(),
    });
    expect(res.status).toBe(200);
    const newly = res.body.newlyRefused as {
      keyId: string;
      keyName: string;
      clientIp: null;
      requests: number;
      currentRefused: number;
      candidateRefused: number;
    }[];
    // The override key keeps its own per-key limit (12) in both replays, so it is never newly refused.
    expect(newly.map((c) => c.keyId).sort()).toEqual([trace.keys[0]!.id, trace.keys[1]!.id].sort());
    for (const client of newly) {
      expect(client.keyName).toBe(trace.keys.find((k) => k.id === client.keyId)!.name);
      expect(client.clientIp).toBeNull();
      expect(client.requests).toBe(PLAN.length / 3);
      expect(client.candidateRefused).toBeGreaterThan(client.currentRefused);
    }
    const gains = newly.map((c) => c.candidateRefused - c.currentRefused);
    expect(gains).toEqual([...gains].sort((a, b) => b - a));
    expect(res.body.candidate.clientsAffected).toBeGreaterThanOrEqual(2);
  });

  it("leaves out a header-scoped candidate rule (the trace holds no headers) and names it", async () => {
    const byHeader = { name: "per-user", scope: "header", scopeKey: "x-user-id", limit: 1, windowMs: 60_000 };
    const res = await simulate({ rules: [...CURRENT_RULES, byHeader], ...range() });
    expect(res.status).toBe(200);
    expect(res.body.notSimulated).toEqual([{ rule: "per-user", reason: expect.stringContaining("header") }]);
    expect(res.body.candidate).toEqual(res.body.current);
  });

  it("replays nothing for a range that ends before anything was recorded", async () => {
    const toMs = Math.floor((trace.startedMs - 120_000) / 60_000) * 60_000;
    const res = await simulate({ rules: CURRENT_RULES, fromMs: toMs - 180_000, toMs });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fromMs: toMs - 180_000, toMs, requests: 0, truncated: false, newlyRefused: [] });
    expect(res.body.current.perMinute).toHaveLength(3);
    expect(res.body.current).toEqual(res.body.candidate);
    expect(res.body.current).toMatchObject({ allowed: 0, refused: 0, clientsAffected: 0 });
  });

  it("leaves no key of its run behind, and changes no live counter", async () => {
    const live = (await keysByPrefix(redis, prefix)).filter((k) => !k.includes("}m")).sort();
    await simulate({ rules: [{ name: "new-rule", algorithm: "sliding_log", limit: 1, windowMs: 60_000 }], ...range() });
    expect(await keysByPrefix(redis, `${prefix}sim:`)).toEqual([]);
    expect((await keysByPrefix(redis, prefix)).filter((k) => !k.includes("}m")).sort()).toEqual(live);
  });

  it("a viewer may run it (it changes nothing), from this site", async () => {
    const email = `sim-viewer-${randomBytes(5).toString("hex")}@example.com`;
    const password = "correct horse battery staple";
    operatorIds.push(
      (
        await db
          .getDb()
          .operator.create({ data: { email, passwordHash: await hashPassword(password), role: "viewer" } })
      ).id,
    );
    const login = await callRoute(routes.login.POST, {
      method: "POST",
      path: "/api/auth/login",
      body: { email, password },
      headers: { origin: ORIGIN, "x-forwarded-for": "198.51.100.77" },
    });
    const cookie = sessionCookieOf(login);
    expect((await simulate({ rules: CURRENT_RULES, ...range() }, { headers: { cookie, origin: ORIGIN } })).status).toBe(
      200,
    );
    // 403: the same-origin check every cookie-carried POST gets.
    expect((await simulate({ rules: CURRENT_RULES, ...range() }, { headers: { cookie } })).status).toBe(403);
  });
});

describe("401, 404", () => {
  it("401 without credentials or with a wrong token", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong" }] as Record<string, string>[])
      expect((await simulate({ rules: [], ...range() }, { headers })).status).toBe(401);
  });

  it("404 for an unknown tenant, and for a value that cannot be a tenant id", async () => {
    for (const tenantId of ["Zz9Zz9Zz", "not a tenant"])
      expect((await simulate({ rules: [], ...range() }, { tenantId })).status).toBe(404);
  });
});

describe("422 with per-field errors", () => {
  it.each([
    ["a rule without a limit", { rules: [{ name: "x", windowMs: 60_000 }], fromMs: 1, toMs: 2 }, "rules.0.limit"],
    ["a duplicate rule name", { rules: [CURRENT_RULES[0], CURRENT_RULES[0]], fromMs: 1, toMs: 2 }, "rules.1.name"],
    ["rules that are not a list", { rules: {}, fromMs: 1, toMs: 2 }, "rules"],
    ["toMs before fromMs", { rules: [], fromMs: 2, toMs: 1 }, "toMs"],
    ["a range over 24 h", { rules: [], fromMs: 0, toMs: 86_400_001 }, "toMs"],
    ["a fromMs that is not a whole number", { rules: [], fromMs: 1.5, toMs: 2 }, "fromMs"],
    ["a missing toMs", { rules: [], fromMs: 1 }, "toMs"],
    ["an unknown field", { rules: [], fromMs: 1, toMs: 2, extra: 1 }, ""],
  ])("%s", async (_label, body, field) => {
    const res = await simulate(body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });
});
