/**
 * Durable usage (issue 33, point 2): a redis-server WITHOUT persistence (test/support/redisServer.ts)
 * holds a key's monthly quota and the tenant's; traffic is driven and rolled up into Postgres, more
 * traffic is admitted but not yet rolled up, then Redis restarts empty. The usage guard finds its
 * loss mark gone and seeds the counters from Postgres: the quota holds within the documented bound
 * (over-admission at most the units admitted but not rolled up before the loss), where without the
 * seed the whole quota would be handed out again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { createLimiter, type Limiter } from "@/lib/limiter/decide";
import type { LimiterRule, Subject } from "@/lib/limiter/types";
import { DecisionRecorder } from "@/lib/monitoring/record/decisionRecorder";
import { compileRule } from "@/lib/policy/compiled/effectiveRules";
import { ruleListSchema, type RuleInput } from "@/lib/policy/rules/ruleSchema";
import { createRedisClient, type RedisClient } from "@/lib/redis/connect";
import { startRedisServer, type RedisServerHandle } from "@/test/support/redisServer";
import { UsageRollup } from "./usageRollup";
import { seedAll, UsageGuard } from "./usageSeed";

const DAY_MS = 86_400_000;
const PREFIX = "seedtest:";
const KEY_LIMIT = 50;
const TENANT_LIMIT = 1_000;

let server: RedisServerHandle;
let redis: RedisClient;
let limiter: Limiter;
let recorder: DecisionRecorder;

const compile = (input: RuleInput[]): LimiterRule[] =>
  ruleListSchema.parse(input).map((rule, i) => compileRule(rule, String(i + 1), false).limiter);

const tenantId = `s${Date.now().toString(36).slice(-7)}`;
const keyId = "SeedKey1";
const rules = compile([
  { name: "monthly-per-key", algorithm: "fixed_window", limit: KEY_LIMIT, windowMs: 30 * DAY_MS, scope: "key" },
  { name: "monthly-tenant", algorithm: "fixed_window", limit: TENANT_LIMIT, windowMs: 30 * DAY_MS, scope: "tenant" },
]);
const subject: Subject = { tenantId, keyId };
const tenants = () => [{ tenantId, rules: () => rules }];

/** Sends `n` requests through the limiter and the recorder; answers how many were admitted. */
async function drive(n: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < n; i++) {
    const decision = await limiter.decide(rules, subject);
    recorder.recordRequest({ tenantId, keyId, decision, method: "GET", path: "/x" });
    if (decision.allowed) admitted++;
  }
  await recorder.drain();
  return admitted;
}

const remaining = async (rule: LimiterRule) => (await limiter.peek([rule], subject)).results[0]!.remaining;

beforeAll(async () => {
  server = await startRedisServer();
  redis = createRedisClient({ url: server.url, cluster: false, timeoutMs: 2_000, autoPipelining: false });
  limiter = createLimiter({ redis, prefix: PREFIX, timeoutMs: 2_000 });
  recorder = new DecisionRecorder({ redis, prefix: PREFIX, log: () => undefined });
});

afterAll(async () => {
  await recorder.stop();
  redis.disconnect();
  await server.stop();
});

describe("quota counters after Redis loses its data", () => {
  it("are seeded from the rolled-up usage: the quota holds within the bound", async () => {
    const guard = new UsageGuard({ redis, prefix: PREFIX, limiter, db: getDb, tenants, log: () => undefined });
    expect(await guard.check()).toBe("seeded"); // a fresh Redis: nothing to seed, the mark is set
    expect(await guard.check()).toBe("ok");

    expect(await drive(30)).toBe(30);
    const rolled = await new UsageRollup({
      redis,
      prefix: PREFIX,
      db: getDb,
      clock: () => Date.now() + 2 * 60_000,
    }).runOnce();
    expect(rolled.minutes).toBeGreaterThan(0);
    // Admitted after the last roll-up: lost with Redis, the bound's term.
    const tail = await drive(5);
    expect(tail).toBe(5);

    await server.restart(); // no persistence: every counter and the loss mark are gone
    await expect.poll(() => redis.ping().catch(() => "down"), { timeout: 10_000 }).toBe("PONG");
    expect(await remaining(rules[0]!)).toBe(KEY_LIMIT); // what Redis alone would hand out again

    expect(await guard.check()).toBe("seeded");
    expect(await remaining(rules[0]!)).toBe(KEY_LIMIT - 30);
    expect(await remaining(rules[1]!)).toBe(TENANT_LIMIT - 30);

    // Truly left: KEY_LIMIT - 35. Admitted now: at most that plus the tail, far below a fresh quota.
    const after = await drive(KEY_LIMIT);
    expect(after).toBe(KEY_LIMIT - 30);
    expect(after).toBeLessThanOrEqual(KEY_LIMIT - 35 + tail);
  });

  it("leave intact counters as they are (the seed is a max, never added twice)", async () => {
    const before = await remaining(rules[0]!);
    await recorder.drain();
    await new UsageRollup({ redis, prefix: PREFIX, db: getDb, clock: () => Date.now() + 2 * 60_000 }).runOnce();
    const seeded = await seedAll({ limiter, db: getDb, tenants });
    expect(seeded.units).toBe(0);
    expect(await remaining(rules[0]!)).toBe(before);
  });
});
