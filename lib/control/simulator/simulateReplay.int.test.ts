/**
 * The simulator against the truth, on a trace recorded by real enforcement
 * (test/support/simulationTrace.ts):
 * - the trace holds what live enforcement decided, request by request, in the order it decided;
 * - replaying the current rules in process, through the reference models, decides every request
 *   as live enforcement (the Lua limiter in Redis) did (so the counts per
 *   minute and per client are equal too), and the route's `current` figures are those counts;
 * - the route's `candidate` figures equal a reference computed by the TypeScript reference models
 *   (lib/limiter/localLimiter.ts runs them) over the same trace.
 * Deletes its tenant and its prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRule, mergeRules, rulesForRequest } from "@/lib/policy/compiled/effectiveRules";
import { counterField, counterKey, stateId } from "@/lib/limiter/keys";
import { LocalLimiter } from "@/lib/limiter/localLimiter";
import type { TraceEntry } from "@/lib/monitoring/record/requestTrace";
import { ruleListSchema, type RuleInput } from "@/lib/policy/rules/ruleSchema";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute, type RouteAnswer } from "@/test/support/routeCall";
import { loadRoutes, routeTestEnv, type Routes } from "@/test/support/routeTestEnv";
import { PLAN, recordTrace, type RecordedTrace } from "@/test/support/simulationTrace";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { plainRedis } from "@/test/support/testRedis";
import { aggregate } from "./aggregate";
import { replayPass } from "./replayPass";
import { prismaSimulationStore } from "./simulationStore";
import { readTrace } from "./traceReader";

// The trace must hold Redis's decisions: on a machine loaded enough to starve this process, the
// limiter's 100 ms budget runs out and rules fail open (live admits what Redis would refuse), and
// the replay, which never fails open, would rightly differ. Pinned: a budget no loaded run misses.
process.env.SLUICE_REDIS_TIMEOUT_MS = "5000";
const { auth, prefix, close } = routeTestEnv("simreplay");
// Loaded after the environment is set: config() reads it once, on first use.
const routes = await loadRoutes("tenants", "tenantKeys", "tenantRules", "keyRules", "echo", "simulate");
const { services } = await import("@/lib/runtime/services");
const redis = plainRedis();
let trace: RecordedTrace;
let entries: TraceEntry[];

/** Several algorithms, a renamed limit on an existing name, new names, match filters, a shadow rule. */
const CANDIDATE: RuleInput[] = [
  { name: "per-key", algorithm: "sliding_window", limit: 4, windowMs: 60_000 },
  { name: "paced", algorithm: "gcra", limit: 2, windowMs: 5_000, burst: 2, match: { path: "/api/v1/echo/**" } },
  {
    name: "tenant-gets",
    scope: "tenant",
    algorithm: "sliding_log",
    limit: 25,
    windowMs: 60_000,
    match: { methods: ["GET"] },
  },
  {
    name: "per-ip-post",
    scope: "ip",
    algorithm: "token_bucket",
    limit: 1,
    windowMs: 10_000,
    burst: 2,
    match: { methods: ["POST"] },
  },
  { name: "watch", algorithm: "fixed_window", limit: 1, windowMs: 60_000, mode: "shadow" },
];

const admin = (
  handler: Routes,
  init: { method?: string; path?: string; body?: unknown; params?: Record<string, string> } = {},
): Promise<RouteAnswer> => callRoute(handler[init.method ?? "GET"], { ...init, headers: auth });

beforeAll(async () => {
  await redis.connect();
  trace = await recordTrace(admin, routes, () => services().recorder.drain());
  const read = await readTrace(
    { redis, prefix, timeoutMs: 5_000 },
    trace.tenantId,
    { fromMs: trace.startedMs - 5_000, toMs: trace.endedMs + 5_000 },
    1_000,
  );
  entries = read.entries;
});

afterAll(async () => {
  await services().recorder.stop();
  await deleteTenants(TEST_DATABASE_URL, trace?.tenantId ? [trace.tenantId] : []);
  redis.disconnect();
  await close();
});

const refusedOf = (entry: TraceEntry) => (entry.decision === "allowed" ? 0 : 1);

describe("the recorded trace", () => {
  it("holds every request with what live enforcement decided, admitted ones in the order they were decided", () => {
    expect(entries).toHaveLength(PLAN.length);
    const line = (status: number, ip: string | null, method: string, path: string) =>
      `${status} ${ip} ${method} ${path}`;
    trace.keys.forEach((key, index) => {
      const recorded = entries
        .filter((e) => e.keyId === key.id)
        .map((e) => line(e.decision === "allowed" ? 200 : 429, e.ip, e.method, e.path));
      const live = PLAN.flatMap((p, i) => (p.key === index ? [line(trace.statuses[i]!, p.ip, p.method, p.path)] : []));
      // A refusal answered from the refusal cache is recorded at the cached Redis time plus the time
      // elapsed on this process's clock, which lags by the Redis round trip, so it may sort a few ms
      // early. Replaying it anywhere before its retry time refuses it again, and a refusal consumes
      // nothing, so no other decision changes (the next test checks that).
      expect([...recorded].sort()).toEqual([...live].sort());
      expect(recorded.filter((l) => l.startsWith("200"))).toEqual(live.filter((l) => l.startsWith("200")));
    });
    // Both kinds of verdict are in it, and the refusing rule is named.
    expect(new Set(trace.statuses)).toEqual(new Set([200, 429]));
    for (const e of entries) expect(e.refusedBy === null).toBe(e.decision === "allowed");
  });
});

describe("replaying the current rules", () => {
  it("is cut at the replay cap: the earliest requests by time, and `truncated`", async () => {
    const cap = PLAN.length - 3;
    const range = { fromMs: trace.startedMs - 5_000, toMs: trace.endedMs + 5_000 };
    const cut = await readTrace({ redis, prefix, timeoutMs: 5_000 }, trace.tenantId, range, cap);
    expect(cut.truncated).toBe(true);
    expect(cut.entries).toEqual(entries.slice(0, cap));
    const whole = await readTrace({ redis, prefix, timeoutMs: 5_000 }, trace.tenantId, range, PLAN.length);
    expect(whole.truncated).toBe(false);
    expect(whole.entries).toHaveLength(PLAN.length);
  });

  it("decides every request as live enforcement did", async () => {
    const sets = await prismaSimulationStore.ruleSets(
      trace.tenantId,
      trace.keys.map((k) => k.id),
    );
    const replayed = await replayPass(entries, {
      tenantId: trace.tenantId,
      rulesOf: (keyId) => mergeRules(sets.tenant, sets.overrides.get(keyId ?? "") ?? []),
    });
    expect([...replayed]).toEqual(entries.map(refusedOf));
  });

  it("gives the route's current figures: per minute and per client equal to live", async () => {
    const res = await callRoute(routes.simulate.POST, {
      method: "POST",
      params: { tenantId: trace.tenantId },
      headers: auth,
      body: {
        rules: [{ name: "per-key", limit: 1, windowMs: 3_600_000, algorithm: "fixed_window" }],
        fromMs: trace.startedMs - 5_000,
        toMs: trace.endedMs + 5_000,
      },
    });
    expect(res.status).toBe(200);
    const live = entries.map(refusedOf);
    const expected = aggregate(
      { fromMs: res.body.fromMs, toMs: res.body.toMs },
      entries,
      Uint8Array.from(live),
      Uint8Array.from(live),
    );
    expect(res.body.current).toEqual(expected.current);
    // Per client: every key that the one-per-hour candidate newly refuses shows its live refusals.
    for (const client of res.body.newlyRefused) {
      const index = trace.keys.findIndex((k) => k.id === client.keyId);
      const mine = PLAN.map((p, i) => [p.key, trace.statuses[i]!] as const).filter(([key]) => key === index);
      expect(client.currentRefused).toBe(mine.filter(([, s]) => s === 429).length);
      expect(client.requests).toBe(mine.length);
    }
    // The override key keeps its own per-key limit in both replays: only the other two are listed.
    expect(res.body.newlyRefused).toHaveLength(2);
  });
});

describe("the candidate's figures", () => {
  it("equal a reference computed by the TypeScript reference models over the same trace", async () => {
    const sets = await prismaSimulationStore.ruleSets(
      trace.tenantId,
      trace.keys.map((k) => k.id),
    );
    const candidate = ruleListSchema.parse(CANDIDATE).map((rule) => compileRule(rule, rule.name, false));
    const models = new LocalLimiter();
    const reference = entries.map((e) => {
      const rules = rulesForRequest(mergeRules(candidate, sets.overrides.get(e.keyId!) ?? []), e.method, e.path);
      const subject = { tenantId: trace.tenantId, keyId: e.keyId!, ip: e.ip! };
      const results = models.decide(
        rules.map((rule) => ({ rule, key: stateId(counterKey("model:", rule, subject), counterField(rule)) })),
        e.atMs,
      );
      return results.some((r) => r.rule.mode === "enforce" && !r.allowed) ? 1 : 0;
    });
    const res = await callRoute(routes.simulate.POST, {
      method: "POST",
      params: { tenantId: trace.tenantId },
      headers: auth,
      body: { rules: CANDIDATE, fromMs: trace.startedMs - 5_000, toMs: trace.endedMs + 5_000 },
    });
    expect(res.status).toBe(200);
    const expected = aggregate(
      { fromMs: res.body.fromMs, toMs: res.body.toMs },
      entries,
      Uint8Array.from(entries.map(refusedOf)),
      Uint8Array.from(reference),
    );
    expect(res.body.candidate).toEqual(expected.candidate);
    const withoutName = (clients: { keyName: string | null }[]) =>
      clients.map((client) => ({ ...client, keyName: null }));
    expect(withoutName(res.body.newlyRefused)).toEqual(withoutName(expected.newlyRefused));
    // The candidate is stricter than the current rules: the comparison is not vacuous.
    expect(expected.candidate.refused).toBeGreaterThan(expected.current.refused);
  });
});
