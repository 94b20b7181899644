/**
 * "Limited right now" against the shared local Redis under its own prefix: real limiter decisions
 * (Redis time), recorded and flushed, read back with the live quota a peek sees. Who was refused
 * in the last minute is listed with the rule, the refusals and the quota now; older refusals,
 * rules that are gone and other tenants are told apart.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createLimiter } from "@/lib/limiter/decide";
import type { LimiterRule } from "@/lib/limiter/types";
import { decisionOf } from "@/test/support/decisions";
import { monitoringTestBed, perRefused, req } from "@/test/support/monitoringTestBed";
import { limiterRule } from "@/test/support/rules";
import { AccessCache } from "@/lib/policy/compiled/accessCache";
import type { KeyAccess, TenantAccess } from "@/lib/policy/compiled/accessLoader";
import { compileRule, mergeRules } from "@/lib/policy/compiled/effectiveRules";
import { ruleSchema } from "@/lib/policy/rules/ruleSchema";
import { limitedNow } from "./limitedNowQuery";
import { liveRuleOf } from "./monitoringDirectory";
import { DecisionRecorder } from "../record/decisionRecorder";

const bed = monitoringTestBed("lim");
afterAll(() => bed.close());

/** A recorder on the real clock (decisions carry Redis time), logging nothing. */
const realClockRecorder = () =>
  new DecisionRecorder({ redis: bed.redis, prefix: bed.prefix, timeoutMs: 2_000, log: () => undefined });

const limiter = createLimiter({ redis: bed.redis, prefix: bed.prefix, timeoutMs: 2_000 });
const perKey = limiterRule({ name: "per-key", ref: "1", limit: 2, windowMs: 60_000 });
const perCaller = limiterRule({ name: "per-caller", ref: "4", scope: "identifier", limit: 1, windowMs: 60_000 });

describe("limited right now", () => {
  const T = bed.newTenant();
  const other = bed.newTenant();
  const rules = new Map<string, LimiterRule>([
    [`${T}/1`, perKey],
    [`${T}/4`, perCaller],
    [`${other}/1`, perKey],
  ]);
  const live = {
    rule: (tenantId: string, ref: string) => rules.get(`${tenantId}/${ref}`) ?? null,
    peek: limiter.peek.bind(limiter),
  };
  const deps = { redis: bed.redis, prefix: bed.prefix, timeoutMs: 2_000, directory: bed.directory };

  const setup = (async () => {
    const recorder = realClockRecorder();
    // Key A: two admitted, two refused by per-key (limit 2 per minute).
    for (let i = 0; i < 4; i++) {
      const decision = await limiter.decide([perKey], { tenantId: T, keyId: "KeyAAAA1" });
      recorder.recordRequest(req(T, "KeyAAAA1", decision), decision.nowMs);
    }
    // An identifier with a tab in it: one admitted, one refused.
    for (let i = 0; i < 2; i++) {
      const decision = await limiter.decide([perCaller], { tenantId: T, identifier: "user\t42" });
      recorder.recordCheck(T, decision, decision.nowMs, "user\t42");
    }
    // Key B of another tenant was refused 90 s ago: not limited "right now".
    const old = await limiter.decide(
      [{ ...perKey, limit: 0 }],
      { tenantId: other, keyId: "KeyBBBB1" },
      { nowMs: Date.now() - 90_000 },
    );
    recorder.recordRequest(req(other, "KeyBBBB1", old), Date.now() - 90_000);
    expect(await recorder.flush()).toBe("written");
  })();

  it("lists the refused key and identifier with their rule, refusals and live quota, still-refused first", async () => {
    await setup;
    const now = await limitedNow(deps, live, { tenantId: T, nowMs: Date.now() });
    expect(now.clients.map((c) => [c.scope, c.subject, c.rule.name, c.refused])).toEqual([
      ["key", "KeyAAAA1", "per-key", 2],
      ["identifier", "user\t42", null, 1],
    ]);
    const [key, caller] = now.clients;
    expect(key!.keyName).toBe("key KeyAAAA1");
    expect(key!.quota).toMatchObject({ limit: 2, capacity: 2, remaining: 0 });
    expect(key!.quota!.retryAfterMs).toBeGreaterThan(0);
    expect(key!.quota!.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(caller!.quota).toMatchObject({ limit: 1, remaining: 0 });
    expect(now.sinceMs).toBeLessThanOrEqual(Date.now() - 60_000);
  });

  it("the global view names tenants; a refusal older than a minute is left out", async () => {
    await setup;
    const all = await limitedNow(deps, live, { nowMs: Date.now() });
    const mine = all.clients.filter((c) => c.tenantId === T || c.tenantId === other);
    expect(mine.map((c) => [c.tenantName, c.subject])).toEqual([
      [`name of ${T}`, "KeyAAAA1"],
      [`name of ${T}`, "user\t42"],
    ]);
  });

  it("a rule that no longer exists is listed without a quota, and peeks charge nothing", async () => {
    await setup;
    const gone = { rule: () => null, peek: live.peek };
    const now = await limitedNow(deps, gone, { tenantId: T, nowMs: Date.now() });
    expect(now.clients.map((c) => c.quota)).toEqual([null, null]);
    const again = await limitedNow(deps, live, { tenantId: T, nowMs: Date.now() });
    expect(again.clients[0]!.quota!.remaining).toBe(0);
    expect(again.clients[0]!.refused).toBe(2);
  });

  it("Redis down is a 503 AppError, not an empty list", async () => {
    const down = bed.client("redis://127.0.0.1:1");
    await expect(
      limitedNow({ ...deps, redis: down, timeoutMs: 300 }, live, { tenantId: T, nowMs: Date.now() }),
    ).rejects.toMatchObject({ code: "limiter_unavailable" });
  });
});

describe("limited right now: Envoy descriptor subjects", () => {
  const T = bed.newTenant();
  const perAddress = limiterRule({ name: "per-address", ref: "7", scope: "descriptor", limit: 1, windowMs: 60_000 });
  const live = {
    rule: (tenantId: string, ref: string) => (tenantId === T && ref === "7" ? perAddress : null),
    peek: limiter.peek.bind(limiter),
  };
  const deps = { redis: bed.redis, prefix: bed.prefix, timeoutMs: 2_000, directory: bed.directory };

  it("lists a refused descriptor value with its rule's live quota (peeked through a slot of its own)", async () => {
    const recorder = realClockRecorder();
    // As lib/dataplane/envoy/descriptorRules.ts derives it for descriptor 0 of a call.
    const callRule = { ...perAddress, descriptorSlot: "0:7" };
    const attributes = { "0:7": "10.0.0.1" };
    for (let i = 0; i < 2; i++) {
      const decision = await limiter.decide([callRule], { tenantId: T, attributes });
      recorder.recordCheck(T, decision, decision.nowMs, undefined, attributes);
    }
    expect(await recorder.flush()).toBe("written");
    const now = await limitedNow(deps, live, { tenantId: T, nowMs: Date.now() });
    expect(now.clients.map((c) => [c.scope, c.subject, c.refused])).toEqual([["descriptor", "10.0.0.1", 1]]);
    expect(now.clients[0]!.quota).toMatchObject({ limit: 1, remaining: 0 });
  });
});

describe("limited right now: a key override replaced the rule that refused", () => {
  const T = bed.newTenant();
  const KEY = "KeyOver01";
  const deps = { redis: bed.redis, prefix: bed.prefix, timeoutMs: 2_000, directory: bed.directory };
  // The tenant's per-key (2 a minute) and the key's override of the same name (2,000 a minute):
  // same name, so same ref "1" and same counter, as lib/policy/compiled/accessLoader.ts loads them.
  const rule = (limit: number, override: boolean) =>
    compileRule(ruleSchema.parse({ name: "per-key", limit, windowMs: 60_000 }), "1", override);
  const tenantRules = [rule(2, false)];
  const access = (overrides: ReturnType<typeof rule>[]): AccessCache => {
    const key: KeyAccess = {
      id: KEY,
      tenantId: T,
      name: "abusive",
      secretHash: "h",
      expiresAtMs: null,
      overrides,
      rules: mergeRules(tenantRules, overrides),
    };
    const tenant: TenantAccess = { id: T, name: "demo", rules: tenantRules, keys: new Map([[KEY, key]]) };
    const load = async () => tenant;
    return new AccessCache({ loadAll: async () => new Map([[T, tenant]]), loadTenant: load });
  };
  const liveOf = (cache: AccessCache) => ({ rule: liveRuleOf(cache, 60), peek: limiter.peek.bind(limiter) });

  it("peeks the key's effective rule (the override in force), not the tenant rule it replaced", async () => {
    const recorder = realClockRecorder();
    // Refused by the tenant's per-key: 2 admitted, 2 refused.
    for (let i = 0; i < 4; i++) {
      const decision = await limiter.decide([tenantRules[0]!.limiter], { tenantId: T, keyId: KEY });
      recorder.recordRequest(req(T, KEY, decision), decision.nowMs);
    }
    expect(await recorder.flush()).toBe("written");

    const before = access([]);
    await before.ready();
    const refused = await limitedNow(deps, liveOf(before), { tenantId: T, nowMs: Date.now() });
    expect(refused.clients[0]!.quota).toMatchObject({ limit: 2, remaining: 0 });
    expect(refused.clients[0]!.quota!.retryAfterMs).toBeGreaterThan(0);

    // Then the override is saved: the same counter (2 used) now against 2,000.
    const after = access([rule(2_000, true)]);
    await after.ready();
    const now = await limitedNow(deps, liveOf(after), { tenantId: T, nowMs: Date.now() });
    expect(now.clients.map((c) => [c.subject, c.rule.name, c.refused])).toEqual([[KEY, "per-key", 2]]);
    expect(now.clients[0]!.quota).toMatchObject({ limit: 2_000, capacity: 2_000, remaining: 1_998, retryAfterMs: 0 });
  });
});

describe("limited right now: a streak of refusals", () => {
  const T = bed.newTenant();
  const deps = { redis: bed.redis, prefix: bed.prefix, timeoutMs: 2_000, directory: bed.directory };
  const MIN = 60_000;

  it("counts every minute of a client's streak and says since when, instead of resetting at each minute", async () => {
    const recorder = realClockRecorder();
    const now = Math.floor(Date.now() / MIN) * MIN + 30_000;
    const refuse = (keyId: string, atMs: number, times: number) => {
      for (let i = 0; i < times; i++) recorder.recordRequest(req(T, keyId, decisionOf([perRefused], atMs)), atMs);
    };
    // Streak: refused in each of the last four minutes (3 + 2 + 4 + 1 = 10), nothing before.
    refuse("KeyStrk1", now - 3 * MIN, 3);
    refuse("KeyStrk1", now - 2 * MIN, 2);
    refuse("KeyStrk1", now - MIN, 4);
    refuse("KeyStrk1", now, 1);
    // A gap: refused 5 minutes ago, then only now: the streak is this minute alone.
    refuse("KeyGap001", now - 5 * MIN, 7);
    refuse("KeyGap001", now, 2);
    expect(await recorder.flush()).toBe("written");

    const limited = await limitedNow(deps, undefined, { tenantId: T, nowMs: now });
    const row = (keyId: string) => limited.clients.find((c) => c.subject === keyId)!;
    const minuteStart = (ms: number) => Math.floor(ms / MIN) * MIN;
    expect(row("KeyStrk1")).toMatchObject({ refused: 10, refusedSinceMs: minuteStart(now - 3 * MIN) });
    expect(row("KeyGap001")).toMatchObject({ refused: 2, refusedSinceMs: minuteStart(now) });
    expect(limited.sinceMs).toBe(minuteStart(now - 3 * MIN));
  });
});
