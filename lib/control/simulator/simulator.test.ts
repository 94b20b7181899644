/**
 * The simulator cannot hurt live traffic (issue 15, point 2), with a stand-in Redis that serves
 * only XRANGE over an in-memory trace and records every command:
 * - a replay sends no limiter call to Redis (only bounded XRANGE reads of the trace), even for the
 *   review's hostile candidate (a tenant-wide sliding_log of the largest limit over 200,000
 *   requests), and its figures are exact;
 * - one simulation at a time per instance: another at the same moment is a 503 `simulator_busy`;
 * - the replay yields to the event loop while it works.
 */
import { describe, expect, it } from "vitest";
import { compileRule, compileTierRule, type CompiledRule } from "../../policy/compiled/effectiveRules";
import { AppError } from "../../http/errors";
import { traceFields, type TraceEntry } from "../../monitoring/record/requestTrace";
import type { RedisClient } from "../../redis/connect";
import { ruleListSchema, type RuleInput } from "../../policy/rules/ruleSchema";
import { replayPass } from "./replayPass";
import { createSimulator } from "./simulator";
import type { SimulationStore } from "./simulationStore";

const TENANT = "tSim0001";
const T0 = Date.UTC(2026, 0, 1);

function entries(count: number, everyMs: number): TraceEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    tenantId: TENANT,
    atMs: T0 + i * everyMs,
    keyId: `key${i % 7}abc`,
    ip: `198.51.100.${i % 50}`,
    method: "GET",
    path: `/api/v1/echo/${i % 3}`,
    cost: 1,
    decision: "allowed" as const,
    refusedBy: null,
  }));
}

/** A Redis with one stream (ids = recorded times), answering XRANGE only; `gate` holds every call until it resolves. */
function traceRedis(trace: TraceEntry[], gate?: Promise<void>) {
  const stream = trace.map((e, i) => ({ ms: e.atMs, seq: i, fields: traceFields(e) }));
  const compare = (a: { ms: number; seq: number }, ms: number, seq: number) => a.ms - ms || a.seq - seq;
  /** Index of the first entry after (ms, seq), or at it when `inclusive`. */
  const firstFrom = (ms: number, seq: number, inclusive: boolean) => {
    let lo = 0;
    let hi = stream.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compare(stream[mid]!, ms, seq);
      if (c < 0 || (c === 0 && !inclusive)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const commands: { name: string; count?: number }[] = [];
  const redis = {
    status: "ready",
    options: {},
    async call(name: string, ...args: (string | number)[]) {
      commands.push({ name, count: Number(args[4]) });
      await gate;
      if (name !== "XRANGE") throw new Error(`unexpected ${name}`);
      const [, start, end, , count] = args as [string, string, string, string, number];
      const exclusive = start.startsWith("(");
      const [fromMs, fromSeq = 0] = (exclusive ? start.slice(1) : start).split("-").map(Number);
      const from = start === "-" ? 0 : firstFrom(fromMs!, fromSeq, !exclusive);
      const to = end === "+" ? stream.length : firstFrom(Number(end) + 1, 0, true);
      return stream.slice(from, Math.min(to, from + count)).map((e) => [`${e.ms}-${e.seq}`, e.fields]);
    },
  };
  return { redis: redis as unknown as RedisClient, commands };
}

function store(current: RuleInput[]): SimulationStore {
  const tenant: CompiledRule[] = ruleListSchema.parse(current).map((rule, i) => compileRule(rule, `r${i}`, false));
  return {
    async assertTenant() {},
    async ruleSets() {
      return { tenant, overrides: new Map(), refs: new Map(tenant.map((c) => [c.rule.name, c.limiter.ref])) };
    },
    async keyNames() {
      return new Map();
    },
  };
}

const rules = (input: RuleInput[]) => ruleListSchema.parse(input);

describe("a simulation", () => {
  it("replays in this process: Redis only serves XRANGE reads of at most 1,000 entries, and the figures are exact", async () => {
    const trace = entries(3_000, 100);
    const { redis, commands } = traceRedis(trace);
    const simulator = createSimulator({ redis, prefix: "t:", store: store([]), clock: () => T0 + 86_400_000 });
    const result = await simulator.simulate(TENANT, {
      rules: rules([{ name: "tenant-log", scope: "tenant", algorithm: "sliding_log", limit: 10, windowMs: 60_000 }]),
      fromMs: T0,
      toMs: T0 + 3_600_000,
    });
    expect(new Set(commands.map((c) => c.name))).toEqual(new Set(["XRANGE"]));
    expect(Math.max(...commands.map((c) => c.count!))).toBeLessThanOrEqual(1_000);
    expect(result.requests).toBe(3_000);
    // One request per 100 ms for 300 s against 10 per 60 s, tenant-wide: 10 of each minute's 600 pass.
    expect(result.current).toMatchObject({ allowed: 3_000, refused: 0 });
    expect(result.candidate).toMatchObject({ allowed: 50, refused: 2_950 });
  });

  it("the review's hostile candidate (a tenant-wide sliding_log of the largest limit, a day's window, 50,000 requests) finishes, exact", async () => {
    const trace = entries(50_000, 20);
    const { redis, commands } = traceRedis(trace);
    const simulator = createSimulator({
      redis,
      prefix: "t:",
      store: store([{ name: "per-key", algorithm: "sliding_window", limit: 1_000_000, windowMs: 60_000 }]),
      clock: () => T0 + 86_400_000,
    });
    const candidate = rules([
      { name: "per-key", scope: "tenant", algorithm: "sliding_log", limit: 10_000, windowMs: 86_400_000 },
    ]);
    const result = await simulator.simulate(TENANT, { rules: candidate, fromMs: T0, toMs: T0 + 86_400_000 });
    expect(result.requests).toBe(50_000);
    expect(result.current).toMatchObject({ allowed: 50_000, refused: 0 });
    expect(result.candidate).toMatchObject({ allowed: 10_000, refused: 40_000 });
    expect(commands.every((c) => c.name === "XRANGE")).toBe(true);
  }, 120_000);

  it.each(["fixed_window", "sliding_log"] as const)(
    "applies penalties (%s): once the rule refuses, everything is refused until the penalty's end",
    async (algorithm) => {
      const trace = entries(3_000, 100); // one request per 100 ms for 300 s
      const { redis } = traceRedis(trace);
      const simulator = createSimulator({ redis, prefix: "t:", store: store([]), clock: () => T0 + 86_400_000 });
      const candidate = rules([
        { name: "tenant-total", scope: "tenant", algorithm, limit: 10, windowMs: 60_000, blockMs: 120_000 },
      ]);
      const result = await simulator.simulate(TENANT, { rules: candidate, fromMs: T0, toMs: T0 + 3_600_000 });
      // 10 pass at 0 s, the 11th (1 s) starts a penalty until 121 s; 10 pass from 121 s, the next one
      // (122 s) starts one until 242 s; 10 pass from 242 s, then a penalty past the trace's end.
      expect(result.candidate).toMatchObject({ allowed: 30, refused: 2_970 });
    },
  );

  it("does not replay rules counted by response (the trace has no statuses) and says so", async () => {
    const trace = entries(600, 100);
    const { redis } = traceRedis(trace);
    const simulator = createSimulator({
      redis,
      prefix: "t:",
      store: store([{ name: "logins", scope: "tenant", limit: 1, windowMs: 60_000, chargeOn: ["4xx"] }]),
      clock: () => T0 + 86_400_000,
    });
    const candidate = rules([
      { name: "logins", scope: "tenant", limit: 1, windowMs: 60_000, chargeOn: ["4xx"] },
      { name: "total", scope: "tenant", algorithm: "fixed_window", limit: 100, windowMs: 3_600_000 },
    ]);
    const result = await simulator.simulate(TENANT, { rules: candidate, fromMs: T0, toMs: T0 + 3_600_000 });
    // Never charged (no status to charge by), never refusing: only `total` counts.
    expect(result.current).toMatchObject({ allowed: 600, refused: 0 });
    expect(result.candidate).toMatchObject({ allowed: 100, refused: 500 });
    expect(result.notSimulated).toEqual([
      { rule: "logins", reason: expect.stringMatching(/does not record response statuses/) },
    ]);
  });

  it("is one at a time per instance: another one meanwhile is a 503 simulator_busy with Retry-After, and the next one after it runs", async () => {
    const trace = entries(100, 1_000);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { redis } = traceRedis(trace, gate);
    const simulator = createSimulator({ redis, prefix: "t:", store: store([]), clock: () => T0 + 86_400_000 });
    const input = { rules: rules([{ name: "x", limit: 5, windowMs: 60_000 }]), fromMs: T0, toMs: T0 + 3_600_000 };
    const first = simulator.simulate(TENANT, input);
    const second = await simulator.simulate(TENANT, input).then(
      () => null,
      (error: unknown) => error,
    );
    expect(second).toBeInstanceOf(AppError);
    expect(second).toMatchObject({ code: "simulator_busy", status: 503, extra: { headers: { "Retry-After": "5" } } });
    release();
    expect((await first).requests).toBe(100);
    expect((await simulator.simulate(TENANT, input)).requests).toBe(100);
  });
});

describe("replayPass", () => {
  it("yields to the event loop while it replays (a timer set before it fires before it ends)", async () => {
    const trace = entries(200_000, 20);
    const tenant = rules([
      { name: "log", scope: "tenant", algorithm: "sliding_log", limit: 10_000, windowMs: 86_400_000 },
    ]).map((r) => compileRule(r, "r0", false));
    const order: string[] = [];
    setTimeout(() => order.push("timer"), 0);
    const refused = await replayPass(trace, { tenantId: TENANT, rulesOf: () => tenant });
    order.push("replay");
    expect(order).toEqual(["timer", "replay"]);
    expect(refused.reduce((n, r) => n + r, 0)).toBe(190_000);
  }, 120_000);
});

describe("a simulation with access lists", () => {
  it("refuses denied requests without charge and passes allowed ones uncharged, in both replays", async () => {
    // Even requests come from an allow-listed key; every fourth (odd, other key) from a denied address.
    const trace: TraceEntry[] = Array.from({ length: 100 }, (_, i) => ({
      tenantId: TENANT,
      atMs: T0 + i * 1_000,
      keyId: i % 2 === 0 ? "Kallow01" : "Kother01",
      ip: `198.51.100.${i % 4}`,
      method: "GET",
      path: "/api/v1/echo",
      cost: 1,
      decision: "allowed" as const,
      refusedBy: null,
    }));
    const { redis } = traceRedis(trace);
    const withLists: SimulationStore = {
      ...store([{ name: "tenant-log", scope: "tenant", algorithm: "sliding_log", limit: 10, windowMs: 3_600_000 }]),
      accessLists: async () => ({ allow: ["key:Kallow01"], deny: ["198.51.100.3"] }),
    };
    const simulator = createSimulator({ redis, prefix: "t:", store: withLists, clock: () => T0 + 86_400_000 });
    const result = await simulator.simulate(TENANT, { rules: rules([]), fromMs: T0, toMs: T0 + 3_600_000 });
    // Current: 25 denied; 50 allowed by key, uncharged; the other 25 share the limit of 10.
    expect(result.current).toMatchObject({ allowed: 60, refused: 40 });
    // Candidate without rules: only the denied 25 are refused.
    expect(result.candidate).toMatchObject({ allowed: 75, refused: 25 });
  });
});

describe("a simulation with tiers", () => {
  it("replays each request with its recorded tier's rules over the tenant's, current and candidate alike", async () => {
    // 20 requests of one JWT subject in tier `pro`, 20 of a key in no tier, one a second.
    const trace: TraceEntry[] = Array.from({ length: 40 }, (_, i) => ({
      tenantId: TENANT,
      atMs: T0 + i * 1_000,
      keyId: i % 2 === 0 ? "~alice" : "Kplain01",
      ...(i % 2 === 0 ? { tier: "pro" } : {}),
      ip: "198.51.100.1",
      method: "GET",
      path: "/api/v1/echo",
      cost: 1,
      decision: "allowed" as const,
      refusedBy: null,
    }));
    const { redis } = traceRedis(trace);
    const perKey = (limit: number) => ({ name: "per-key", scope: "key" as const, limit, windowMs: 3_600_000 });
    const base = store([perKey(5)]);
    const pro = ruleListSchema.parse([perKey(15)]).map((rule) => compileTierRule(rule, "r0", "pro"));
    const asked: (string[] | undefined)[] = [];
    const withTiers: SimulationStore = {
      ...base,
      async ruleSets(tenantId, keyIds, tiers) {
        asked.push(tiers);
        return { ...(await base.ruleSets(tenantId, keyIds)), tiers: new Map([["pro", pro]]) };
      },
    };
    const simulator = createSimulator({ redis, prefix: "t:", store: withTiers, clock: () => T0 + 86_400_000 });
    const result = await simulator.simulate(TENANT, { rules: rules([perKey(2)]), fromMs: T0, toMs: T0 + 3_600_000 });
    expect(asked).toEqual([["pro"]]);
    // Current: alice (pro) 15 of 20, the plain key 5 of 20. Candidate: the tier's 15 still hold for alice; 2 for the key.
    expect(result.current).toMatchObject({ allowed: 20, refused: 20 });
    expect(result.candidate).toMatchObject({ allowed: 17, refused: 23 });
  });
});
