/**
 * "Limited right now" against the shared local Redis under its own prefix: real limiter decisions
 * (Redis time), recorded and flushed, read back with the live quota a peek sees. Who was refused
 * in the last minute is listed with the rule, the refusals and the quota now; older refusals,
 * rules that are gone and other tenants are told apart.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createLimiter } from "@/lib/limiter/decide";
import type { LimiterRule } from "@/lib/limiter/types";
import { monitoringTestBed, req } from "@/test/support/monitoringTestBed";
import { limiterRule } from "@/test/support/rules";
import { limitedNow } from "./limitedNowQuery";
import { DecisionRecorder } from "../record/decisionRecorder";

const bed = monitoringTestBed("lim");
afterAll(() => bed.close());

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
    const recorder = new DecisionRecorder({
      redis: bed.redis,
      prefix: bed.prefix,
      timeoutMs: 2_000,
      log: () => undefined,
    });
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
    const recorder = new DecisionRecorder({
      redis: bed.redis,
      prefix: bed.prefix,
      timeoutMs: 2_000,
      log: () => undefined,
    });
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
