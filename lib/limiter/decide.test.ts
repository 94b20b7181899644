/**
 * `decide` orchestration with a fake Redis client: fail modes, deadline, reply validation and the
 * refusal cache. The Lua itself is tested against a real Redis in *.int.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { limiterRule } from "@/test/support/rules";
import type { RedisClient } from "../redis/connect";
import { counterKey } from "./keys";
import { createLimiter, refusalFingerprint } from "./decide";
import { LocalLimiter } from "./localLimiter";
import { RefusalCache } from "./refusalCache";
import type { LimiterRule } from "./types";

type Reply = (keys: string[], args: (string | number)[]) => Promise<unknown>;
type Arg = string | number | (string | number)[];

/** Records each script call's ARGV (FCALL, or EVALSHA through defineCommand), flattened one level as ioredis does. */
function fakeRedis(reply: Reply, status = "ready") {
  const calls: (string | number)[][] = [];
  const keysOfCall: string[][] = [];
  const run = (numKeys: number, rest: Arg[]) => {
    const flat = rest.flat();
    calls.push(flat.slice(numKeys));
    keysOfCall.push(flat.slice(0, numKeys) as string[]);
    return reply(flat.slice(0, numKeys) as string[], flat.slice(numKeys));
  };
  const client = {
    status,
    defineCommand() {},
    sluiceDecide: (numKeys: number, ...rest: Arg[]) => run(numKeys, rest),
    call(command: string, _name: string, numKeys: number, ...rest: Arg[]) {
      if (command !== "FCALL") throw new Error(`unexpected command ${command}`);
      return run(numKeys, rest);
    },
  };
  return { client: client as unknown as RedisClient, calls, keysOfCall };
}

const subject = { tenantId: "t1", keyId: "k1" };
const never: Reply = () => new Promise(() => {});
const boom: Reply = () => Promise.reject(new Error("ECONNREFUSED"));
const rule = (over: Partial<LimiterRule>) => limiterRule({ limit: 2, windowMs: 1000, ...over });

describe("decide", () => {
  it("answers from the refusal cache without calling Redis until the retry time", async () => {
    const { client, calls } = fakeRedis(async () => [1000, 0, 0, 0, 500, 700, 500]);
    let now = 0;
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 50, refusals: new RefusalCache(), clock: () => now });
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
    const keysOf = (rules: LimiterRule[], identifier: string) => rules.map((r) => counterKey("p:", r, { tenantId: "t1", identifier }));
    const victim = refusalFingerprint([a, b], keysOf([a, b], "v"));
    // The separators of an unprefixed fingerprint ("<key>#<spec>|"), spelled inside one identifier.
    const crafted = "v#" + "fw,2,1000,2,1,1|" + keysOf([b], "v")[0] + "#fw,2,1000,2,1,1|";
    const forged = crafted.slice(0, -"#fw,2,1000,2,1,1|".length);
    expect(refusalFingerprint([a], keysOf([a], forged))).not.toBe(victim);
  });

  it("does not reuse a cached refusal once the rule changed", async () => {
    const { client, calls } = fakeRedis(async () => [1000, 0, 0, 0, 500, 700, 500]);
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 50, refusals: new RefusalCache(), clock: () => 0 });
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
      const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 30, local: new LocalLimiter(), clock: () => 1_500 });
      const open = await limiter.decide([rule({ failMode: "open" })], subject);
      expect(open).toMatchObject({ allowed: true, unavailable: false });
      expect(open.results[0]!.source).toBe("fail_open");

      const closed = await limiter.decide([rule({ failMode: "open", name: "a" }), rule({ failMode: "closed", name: "b" })], subject);
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
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 30, local: new LocalLimiter(), clock: () => 1_500 });
    const local = rule({ failMode: "local", name: "local", limit: 1 });
    const closed = rule({ failMode: "closed", name: "closed" });
    const refused = await limiter.decide([local, closed], subject);
    expect(refused).toMatchObject({ allowed: false, unavailable: true });
    expect(refused.results[0]).toMatchObject({ allowed: true, remaining: 1, source: "fail_local" });
    expect((await limiter.decide([local], subject)).allowed).toBe(true);
  });

  it("never waits much longer than the timeout", async () => {
    const { client } = fakeRedis(never);
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 40 });
    const started = performance.now();
    await limiter.decide([rule({})], subject);
    expect(performance.now() - started).toBeLessThan(40 + 200);
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

  it("passes explicit time, or this process's clock in app-time mode, or nothing for Redis TIME", async () => {
    const { client, calls } = fakeRedis(async () => [5, 1, 1, 1, 0, 0, 0]);
    await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).decide([rule({})], subject, { nowMs: 1234 });
    await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30, timeSource: "app", clock: () => 99 }).decide([rule({})], subject);
    await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).decide([rule({})], subject);
    // ARGV: spec count m, 9 fields per spec, the request count, then the first request's now.
    const nowOfFirstRequest = (args: (string | number)[]) => args[2 + 9 * Number(args[0])];
    expect(calls.map(nowOfFirstRequest)).toEqual(["1234", "99", ""]);
  });

  it("a decision made while nothing is in flight goes to Redis at once, without waiting for company", async () => {
    const { client, calls } = fakeRedis(async () => [5, 1, 1, 1, 0, 0, 0]);
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 });
    const pending = limiter.decide([rule({})], subject);
    expect(calls).toHaveLength(1); // sent synchronously, before any event-loop turn
    await pending;
    const next = limiter.decide([rule({})], subject);
    expect(calls).toHaveLength(2);
    await next;
  });

  it("batches decisions made while a call is in flight into one call that sends each rule spec once", async () => {
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const replies = [
      async () => {
        await first;
        return [5, 1, 1, 1, 0, 0, 0];
      },
      async () => [5, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
    ];
    const { client, calls, keysOfCall } = fakeRedis(() => replies.shift()!());
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 });
    const shared = rule({ name: "shared" });
    const other = rule({ name: "other", limit: 9 });
    const inFlight = limiter.decide([shared], { tenantId: "t1", keyId: "k0" });
    const batched = Promise.all([
      limiter.decide([shared], subject),
      limiter.decide([shared], { tenantId: "t1", keyId: "k2" }),
      limiter.decide([shared, other], { tenantId: "t1", keyId: "k3" }),
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(2);
    release();
    const decisions = await batched;
    await inFlight;
    const args = calls[1]!;
    expect(args.slice(0, 19)).toEqual([2, "fw", "2", "1000", "2", "1", "1", "fshared", "0", "", "fw", "9", "1000", "9", "1", "1", "fother", "0", ""]);
    // 3 requests: now, commit, lease id ("": no concurrency rule), TTL floor, rule count, then per rule its spec and key numbers and 0
    // (no second key); the two rules of k3 share its subject key (key 3), sent once.
    expect(args.slice(19)).toEqual([3, "", "1", "", 0, 1, 1, 1, 0, "", "1", "", 0, 1, 1, 2, 0, "", "1", "", 0, 2, 1, 3, 0, 2, 3, 0]);
    expect(keysOfCall[1]).toEqual(["p:{t1}2Kk1", "p:{t1}2Kk2", "p:{t1}2Kk3"]);
    expect(decisions.map((d) => d.results.length)).toEqual([1, 1, 2]);
  });

  it("sends a sliding_log rule with a penalty its subject key as its second key, and a penalty's ms and field in its spec", async () => {
    const { client, calls, keysOfCall } = fakeRedis(async () => [5, 1, 1, 1, 0, 0, 0]);
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 });
    await limiter.decide([rule({ name: "log", algorithm: "sliding_log", blockMs: 5000 })], subject);
    expect(calls[0]!.slice(0, 10)).toEqual([1, "sl", "2", "1000", "2", "1", "1", "", "5000", "blog"]);
    expect(calls[0]!.slice(10)).toEqual([1, "", "1", "", 0, 1, 1, 1, 2]);
    expect(keysOfCall[0]).toEqual(["p:{t1}llogKk1", "p:{t1}2Kk1"]);
  });

  it("reads a reply's 2 as a refusal under a penalty in force", async () => {
    const { client } = fakeRedis(async () => [5, 0, 2, 0, 4000, 4000, 4000]);
    const decision = await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).decide([rule({ blockMs: 5000 })], subject);
    expect(decision).toMatchObject({ allowed: false, retryAfterMs: 4000, results: [{ penalized: true }] });
  });

  it("peek throws when Redis cannot answer (there is no quota to show)", async () => {
    const { client } = fakeRedis(boom);
    await expect(createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).peek([rule({})], subject)).rejects.toThrow(/redis error/);
  });
});

describe("createLimiter", () => {
  it("throws at once when the Lua script cannot be loaded, instead of failing every decision open", async () => {
    const previous = process.env.SLUICE_LUA_DIR;
    process.env.SLUICE_LUA_DIR = "/nonexistent";
    vi.resetModules();
    try {
      const fresh = await import("./decide");
      expect(() => fresh.createLimiter({ redis: fakeRedis(never).client, prefix: "p:", timeoutMs: 30 })).toThrow(/ENOENT/);
    } finally {
      if (previous === undefined) delete process.env.SLUICE_LUA_DIR;
      else process.env.SLUICE_LUA_DIR = previous;
    }
  });
});
