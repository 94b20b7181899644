/**
 * `decide` orchestration with a fake Redis client (test/support/fakeDecideRedis.ts): fail modes,
 * deadline and the refusal cache. What it sends to Redis and how it reads the reply:
 * decideScriptCalls.test.ts. The Lua itself is tested against a real Redis in *.int.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { boom, fakeRedis, never, rule, subject } from "@/test/support/fakeDecideRedis";
import { counterKey } from "./keys";
import { createLimiter } from "./decide";
import { LocalLimiter } from "./localLimiter";
import { RefusalCache, refusalFingerprint } from "./refusalCache";
import type { LimiterRule } from "./types";

describe("decide", () => {
  it("answers from the refusal cache without calling Redis until the retry time", async () => {
    const { client, calls } = fakeRedis(async () => [1000, 0, 0, 0, 500, 700, 500]);
    let now = 0;
    const limiter = createLimiter({
      redis: client,
      prefix: "p:",
      timeoutMs: 50,
      refusals: new RefusalCache(),
      clock: () => now,
    });
    const first = await limiter.decide([rule({})], subject);
    expect(first).toMatchObject({ allowed: false, retryAfterMs: 700 });
    now = 600;
    const second = await limiter.decide([rule({})], subject);
    expect(second).toMatchObject({ allowed: false, retryAfterMs: 100 });
    expect(second.results[0]!.source).toBe("cache");
    expect(calls).toHaveLength(1);
    now = 700;
    await limiter.decide([rule({})], subject);
    expect(calls).toHaveLength(2);
  });

  it("a crafted identifier cannot spell another request's refusal fingerprint", () => {
    const [a, b] = [rule({ name: "a", scope: "identifier" }), rule({ name: "b", scope: "identifier" })];
    const keysOf = (rules: LimiterRule[], identifier: string) =>
      rules.map((r) => counterKey("p:", r, { tenantId: "t1", identifier }));
    const victim = refusalFingerprint([a, b], keysOf([a, b], "v"));
    // The separators of an unprefixed fingerprint ("<key>#<spec>|"), spelled inside one identifier.
    const crafted = "v#" + "fw,2,1000,2,1,1|" + keysOf([b], "v")[0] + "#fw,2,1000,2,1,1|";
    const forged = crafted.slice(0, -"#fw,2,1000,2,1,1|".length);
    expect(refusalFingerprint([a], keysOf([a], forged))).not.toBe(victim);
  });

  it("does not reuse a cached refusal once the rule changed", async () => {
    const { client, calls } = fakeRedis(async () => [1000, 0, 0, 0, 500, 700, 500]);
    const limiter = createLimiter({
      redis: client,
      prefix: "p:",
      timeoutMs: 50,
      refusals: new RefusalCache(),
      clock: () => 0,
    });
    await limiter.decide([rule({})], subject);
    await limiter.decide([rule({ limit: 3 })], subject);
    expect(calls).toHaveLength(2);
  });

  describe.each([
    ["a timeout", never],
    ["a connection error", boom],
    ["a malformed reply", async () => ["garbage"]],
  ] as const)("when Redis gives %s", (_, reply) => {
    it("open rules allow, closed rules refuse as unavailable, local rules enforce in memory", async () => {
      const { client } = fakeRedis(reply);
      // A fixed clock: with the real one the two local decisions below could fall on both sides of
      // a 1 s window's edge (each waits out the 30 ms timeout), and the second would be admitted.
      const limiter = createLimiter({
        redis: client,
        prefix: "p:",
        timeoutMs: 30,
        local: new LocalLimiter(),
        clock: () => 1_500,
      });
      const open = await limiter.decide([rule({ failMode: "open" })], subject);
      expect(open).toMatchObject({ allowed: true, unavailable: false });
      expect(open.results[0]!.source).toBe("fail_open");

      const closed = await limiter.decide(
        [rule({ failMode: "open", name: "a" }), rule({ failMode: "closed", name: "b" })],
        subject,
      );
      expect(closed).toMatchObject({ allowed: false, unavailable: true });
      expect(closed.retryAfterMs).toBeGreaterThanOrEqual(1000);

      const local = rule({ failMode: "local", limit: 1 });
      expect((await limiter.decide([local], subject)).allowed).toBe(true);
      const second = await limiter.decide([local], subject);
      expect(second.allowed).toBe(false);
      expect(second.results[0]!.source).toBe("fail_local");
    });
  });

  it("a request refused by a closed rule while Redis is away consumes nothing of its local rules", async () => {
    const { client } = fakeRedis(boom);
    // A fixed clock, so both decisions fall in one window (see above).
    const limiter = createLimiter({
      redis: client,
      prefix: "p:",
      timeoutMs: 30,
      local: new LocalLimiter(),
      clock: () => 1_500,
    });
    const local = rule({ failMode: "local", name: "local", limit: 1 });
    const closed = rule({ failMode: "closed", name: "closed" });
    const refused = await limiter.decide([local, closed], subject);
    expect(refused).toMatchObject({ allowed: false, unavailable: true });
    expect(refused.results[0]).toMatchObject({ allowed: true, remaining: 1, source: "fail_local" });
    expect((await limiter.decide([local], subject)).allowed).toBe(true);
  });

  it("a rule counted by response reserves in memory while Redis is away, and its give-back frees the unit there", async () => {
    const { client } = fakeRedis(boom);
    const limiter = createLimiter({
      redis: client,
      prefix: "p:",
      timeoutMs: 30,
      local: new LocalLimiter(),
      clock: () => 1_500,
    });
    const byResponse = rule({ failMode: "local", name: "logins", limit: 3, chargeOn: ["4xx"] });
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.decide([byResponse], subject)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
    const reserved = decisions.find((d) => d.allowed)!;
    expect(await limiter.giveBack(reserved, [byResponse], subject)).toBe(1);
    expect((await limiter.decide([byResponse], subject)).allowed).toBe(true);
    expect((await limiter.decide([byResponse], subject)).allowed).toBe(false);
  });

  it("gives up within twice the timeout when Redis never answers (fake clock: no event-loop lag)", async () => {
    vi.useFakeTimers();
    try {
      const { client } = fakeRedis(never);
      const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 40 });
      let decided = false;
      const pending = limiter.decide([rule({})], subject).then((decision) => {
        decided = true;
        return decision;
      });
      await vi.advanceTimersByTimeAsync(39);
      expect(decided).toBe(false);
      await vi.advanceTimersByTimeAsync(2 * 40 - 39);
      expect(decided).toBe(true);
      expect((await pending).results[0]?.source).not.toBe("redis");
    } finally {
      vi.useRealTimers();
    }
  });

  it("fails at once, without a call, while the connection is known to be down", async () => {
    const { client, calls } = fakeRedis(never, "reconnecting");
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 10_000 });
    const decision = await limiter.decide([rule({ failMode: "closed" })], subject);
    expect(decision.unavailable).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it("a shadow rule never makes the request unavailable, even with failMode closed", async () => {
    const { client } = fakeRedis(boom);
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 });
    const decision = await limiter.decide([rule({ failMode: "closed", mode: "shadow" })], subject);
    expect(decision).toMatchObject({ allowed: true, unavailable: false });
  });

  it("peek throws when Redis cannot answer (there is no quota to show)", async () => {
    const { client } = fakeRedis(boom);
    await expect(
      createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).peek([rule({})], subject),
    ).rejects.toThrow(/redis error/);
  });
});

describe("createLimiter", () => {
  it("throws at once when the Lua script cannot be loaded, instead of failing every decision open", async () => {
    const previous = process.env.SLUICE_LUA_DIR;
    process.env.SLUICE_LUA_DIR = "/nonexistent";
    vi.resetModules();
    try {
      const fresh = await import("./decide");
      expect(() => fresh.createLimiter({ redis: fakeRedis(never).client, prefix: "p:", timeoutMs: 30 })).toThrow(
        /ENOENT/,
      );
    } finally {
      if (previous === undefined) delete process.env.SLUICE_LUA_DIR;
      else process.env.SLUICE_LUA_DIR = previous;
    }
  });
});
