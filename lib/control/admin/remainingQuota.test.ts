import { describe, expect, it } from "vitest";
import { compileRule, type CompiledRule } from "../../policy/compiled/effectiveRules";
import { AppError } from "../../http/errors";
import type { Limiter } from "../../limiter/decide";
import { LimiterUnavailableError, type Decision, type LimiterRule, type Subject } from "../../limiter/types";
import { ruleSchema, type RuleInput } from "../../policy/rules/ruleSchema";
import { keyQuota, tenantQuota } from "./remainingQuota";

const NOW = 1_700_000_000_000;
const CLOCK = () => 42;

const rule = (input: Partial<RuleInput> & { name: string }, override = false): CompiledRule =>
  compileRule(ruleSchema.parse({ limit: 10, windowMs: 60_000, ...input }), input.name, override);

/**
 * A limiter whose counters hold `used[<ref>|<subject part>]` units; peek answers what is left and,
 * like the real one, whether and when a request of the rule's cost passes; it records each call.
 * `decide` must never be called by a quota view.
 */
function fakeLimiter(used: Record<string, number> = {}, options: { fails?: boolean } = {}) {
  const peeks: { rules: string[]; subject: Subject }[] = [];
  const counter = (r: LimiterRule, s: Subject) =>
    `${r.ref}|${r.scope === "key" ? s.keyId : r.scope === "ip" ? s.ip : r.scope === "identifier" ? s.identifier : "T"}`;
  const limiter: Limiter = {
    giveBack: () => Promise.reject(new Error("no rule here is charged by response")),
    decideThen: () => Promise.reject(new Error("no decision here depends on another")),
    async peek(rules, subject): Promise<Decision> {
      peeks.push({ rules: rules.map((r) => r.name), subject });
      if (options.fails) throw new LimiterUnavailableError("redis did not answer within 100 ms");
      const results = rules.map((r) => {
        const capacity = r.algorithm === "token_bucket" ? r.burst : r.limit;
        const left = Math.max(0, capacity - (used[counter(r, subject)] ?? 0));
        const allowed = left >= r.cost;
        const retryAfterMs = allowed ? 0 : r.cost > capacity ? r.windowMs : 6_000;
        return {
          rule: r,
          allowed,
          limit: r.limit,
          remaining: left,
          resetMs: left < capacity ? 30_000 : 0,
          retryAfterMs,
          nextMs: left < capacity ? 1_000 : 0,
          source: "redis" as const,
        };
      });
      return { allowed: true, unavailable: false, retryAfterMs: 0, nowMs: NOW + peeks.length, results };
    },
    async decide() {
      throw new Error("a quota view must never consume");
    },
    async release() {
      throw new Error("a quota view holds no lease");
    },
  };
  return { limiter, peeks };
}

describe("keyQuota", () => {
  const effective = [
    rule({ name: "per-key", limit: 5 }),
    rule({ name: "total", scope: "tenant", limit: 100 }),
    rule({ name: "per-ip", scope: "ip" }, true),
    rule({ name: "ids", scope: "identifier", mode: "shadow" }),
    rule({ name: "bucket", algorithm: "token_bucket", limit: 2, burst: 8, cost: 3 }),
  ];
  const key = { tenantId: "TTTTTTTT", keyId: "KKKKKKKK", effective };

  it("reads key and tenant rules in ONE peek; ip and identifier rules are listed unread without a probe", async () => {
    const { limiter, peeks } = fakeLimiter({ "per-key|KKKKKKKK": 5, "total|T": 40 });
    const quota = await keyQuota(limiter, key, {}, CLOCK);
    expect(peeks).toEqual([
      {
        rules: ["per-key", "total", "bucket"],
        subject: { tenantId: "TTTTTTTT", keyId: "KKKKKKKK", ip: undefined, identifier: undefined },
      },
    ]);
    expect(quota.nowMs).toBe(NOW + 1);
    expect(quota.rules).toEqual([
      {
        name: "per-key",
        source: "tenant",
        scope: "key",
        algorithm: "sliding_window",
        mode: "enforce",
        limit: 5,
        capacity: 5,
        remaining: 0,
        resetMs: 30_000,
        retryAfterMs: 6_000,
      },
      {
        name: "total",
        source: "tenant",
        scope: "tenant",
        algorithm: "sliding_window",
        mode: "enforce",
        limit: 100,
        capacity: 100,
        remaining: 60,
        resetMs: 30_000,
        retryAfterMs: 0,
      },
      {
        name: "per-ip",
        source: "override",
        scope: "ip",
        algorithm: "sliding_window",
        mode: "enforce",
        limit: 10,
        capacity: 10,
        remaining: null,
        resetMs: null,
        retryAfterMs: null,
      },
      {
        name: "ids",
        source: "tenant",
        scope: "identifier",
        algorithm: "sliding_window",
        mode: "shadow",
        limit: 10,
        capacity: 10,
        remaining: null,
        resetMs: null,
        retryAfterMs: null,
      },
      {
        name: "bucket",
        source: "tenant",
        scope: "key",
        algorithm: "token_bucket",
        mode: "enforce",
        limit: 2,
        capacity: 8,
        remaining: 8,
        resetMs: 0,
        retryAfterMs: 0,
      },
    ]);
  });

  it("reads ip and identifier rules for the values the caller names", async () => {
    const { limiter, peeks } = fakeLimiter({ "per-ip|192.0.2.1": 4, "ids|user-1": 10 });
    const quota = await keyQuota(limiter, key, { ip: "192.0.2.1", identifier: "user-1" }, CLOCK);
    expect(peeks).toHaveLength(1);
    expect(peeks[0]!.rules).toEqual(["per-key", "total", "per-ip", "ids", "bucket"]);
    expect(quota.rules.find((r) => r.name === "per-ip")).toMatchObject({ remaining: 6, retryAfterMs: 0 });
    expect(quota.rules.find((r) => r.name === "ids")).toMatchObject({ remaining: 0, retryAfterMs: 6_000 });
  });

  it("retryAfterMs is the peek's: 0 while a request of the rule's cost passes, else until it would", async () => {
    const costly = { ...key, effective: [rule({ name: "c", cost: 3, limit: 10 })] };
    expect((await keyQuota(fakeLimiter({ "c|KKKKKKKK": 7 }).limiter, costly, {}, CLOCK)).rules[0]).toMatchObject({
      remaining: 3,
      retryAfterMs: 0,
    });
    expect((await keyQuota(fakeLimiter({ "c|KKKKKKKK": 8 }).limiter, costly, {}, CLOCK)).rules[0]).toMatchObject({
      remaining: 2,
      retryAfterMs: 6_000,
    });
  });

  it("with nothing to read: no Redis call, the time from the injected clock", async () => {
    const { limiter, peeks } = fakeLimiter();
    const quota = await keyQuota(limiter, { ...key, effective: [rule({ name: "only-ip", scope: "ip" })] }, {}, CLOCK);
    expect(peeks).toHaveLength(0);
    expect(quota).toEqual({ nowMs: 42, rules: [expect.objectContaining({ name: "only-ip", remaining: null })] });
  });

  it("Redis down or too slow: limiter_unavailable (503), never a made-up figure", async () => {
    const error = await keyQuota(fakeLimiter({}, { fails: true }).limiter, key, {}, CLOCK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("limiter_unavailable");
    expect((error as AppError).status).toBe(503);
  });
});

describe("tenantQuota", () => {
  const tenantRules = [
    rule({ name: "per-key", limit: 5 }),
    rule({ name: "total", scope: "tenant", limit: 100 }),
    rule({ name: "per-ip", scope: "ip" }),
  ];
  const keys = [
    { id: "AAAAAAAA", name: "first", effective: tenantRules },
    {
      id: "BBBBBBBB",
      name: "second",
      effective: [rule({ name: "per-key", limit: 50 }, true), tenantRules[1]!, tenantRules[2]!],
    },
  ];

  it("one peek per key (key-scope rules only) plus one for the tenant-scope rules", async () => {
    const { limiter, peeks } = fakeLimiter({ "per-key|AAAAAAAA": 2, "per-key|BBBBBBBB": 10, "total|T": 1 });
    const quota = await tenantQuota(limiter, { tenantId: "TTTTTTTT", tenantRules, keys, truncated: true }, CLOCK);
    expect(peeks.map((p) => [p.rules, p.subject.keyId])).toEqual([
      [["total"], undefined],
      [["per-key"], "AAAAAAAA"],
      [["per-key"], "BBBBBBBB"],
    ]);
    expect(quota.nowMs).toBe(NOW + 3);
    expect(quota.truncated).toBe(true);
    expect(quota.tenantRules).toEqual([expect.objectContaining({ name: "total", remaining: 99 })]);
    expect(quota.keys).toEqual([
      {
        keyId: "AAAAAAAA",
        keyName: "first",
        rules: [expect.objectContaining({ name: "per-key", source: "tenant", limit: 5, remaining: 3 })],
      },
      {
        keyId: "BBBBBBBB",
        keyName: "second",
        rules: [expect.objectContaining({ name: "per-key", source: "override", limit: 50, remaining: 40 })],
      },
    ]);
  });

  it("no keys and no tenant rules: no Redis call", async () => {
    const { limiter, peeks } = fakeLimiter();
    expect(
      await tenantQuota(limiter, { tenantId: "TTTTTTTT", tenantRules: [], keys: [], truncated: false }, CLOCK),
    ).toEqual({ nowMs: 42, tenantRules: [], keys: [], truncated: false });
    expect(peeks).toHaveLength(0);
  });

  it("any failed peek fails the whole answer with limiter_unavailable", async () => {
    const error = await tenantQuota(
      fakeLimiter({}, { fails: true }).limiter,
      { tenantId: "TTTTTTTT", tenantRules, keys, truncated: false },
      CLOCK,
    ).catch((e: unknown) => e);
    expect((error as AppError).code).toBe("limiter_unavailable");
  });
});
