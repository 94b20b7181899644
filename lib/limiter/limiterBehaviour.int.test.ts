/**
 * The limiter against a real Redis: exactness under concurrency, the documented bounds of each
 * algorithm, all-or-nothing multi-rule decisions, and TTLs on every key.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, keysByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { awayFromWindowEdge } from "@/test/support/sluiceEnv";
import { createLimiter } from "./decide";
import { ALGORITHMS, type LimiterRule } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("behaviour");
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });
const T0 = 1_700_000_000_000;
let tenantSeq = 0;
const freshTenant = () => ({ tenantId: `b${tenantSeq++}`, keyId: "k" });

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

async function admittedCount(rules: LimiterRule[], times: number[], subject = freshTenant()) {
  let admitted = 0;
  for (const nowMs of times) if ((await limiter.decide(rules, subject, { nowMs })).allowed) admitted++;
  return admitted;
}

describe("exactness under concurrency", () => {
  it.each(ALGORITHMS)("500 concurrent decisions on one subject admit exactly `limit` (%s)", async (algorithm) => {
    const rule = limiterRule({ algorithm, limit: 137, windowMs: 60_000 });
    const subject = freshTenant();
    const decisions = await Promise.all(
      Array.from({ length: 500 }, () => limiter.decide([rule], subject, { nowMs: T0 + 5 })),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(137);
  });

  it.each(ALGORITHMS)(
    "with Redis TIME as the clock, concurrent decisions never exceed `limit` (%s)",
    async (algorithm) => {
      const rule = limiterRule({ algorithm, limit: 50, windowMs: 3_600_000 });
      const subject = freshTenant();
      const decisions = await Promise.all(Array.from({ length: 300 }, () => limiter.decide([rule], subject)));
      // Token bucket and GCRA may refill a unit during the run (72 s per unit here: practically never).
      expect(decisions.filter((d) => d.allowed).length).toBe(50);
    },
  );
});

describe("documented bounds", () => {
  it("fixed_window admits up to 2 x limit across a window boundary", async () => {
    const rule = limiterRule({ algorithm: "fixed_window", limit: 20, windowMs: 1000 });
    const times = [...Array(25).fill(T0 + 999), ...Array(25).fill(T0 + 1000)];
    expect(await admittedCount([rule], times)).toBe(40);
  });

  it("sliding_log never admits more than `limit` in any window-length span", async () => {
    const rule = limiterRule({ algorithm: "sliding_log", limit: 10, windowMs: 1000 });
    const subject = freshTenant();
    const admittedAt: number[] = [];
    let now = T0;
    for (let i = 0; i < 400; i++) {
      now += (i * 7919) % 97; // deterministic, irregular gaps
      if ((await limiter.decide([rule], subject, { nowMs: now })).allowed) admittedAt.push(now);
    }
    expect(admittedAt.length).toBeGreaterThan(10);
    for (const start of admittedAt) {
      expect(admittedAt.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(10);
    }
  });

  it("sliding_window stays within its bound: at most limit + previous-window share, never 2 x limit across a boundary", async () => {
    const rule = limiterRule({ algorithm: "sliding_window", limit: 20, windowMs: 1000 });
    const times = [...Array(25).fill(T0 + 999), ...Array(25).fill(T0 + 1000)];
    expect(await admittedCount([rule], times)).toBe(20);
    // Evenly spread traffic at twice the limit is held to about the limit in every window.
    const spread = Array.from({ length: 400 }, (_, i) => T0 + 10_000 + i * 25);
    const subject = freshTenant();
    const admittedAt: number[] = [];
    for (const nowMs of spread) if ((await limiter.decide([rule], subject, { nowMs })).allowed) admittedAt.push(nowMs);
    for (let start = T0 + 11_000; start < T0 + 19_000; start += 250) {
      expect(admittedAt.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(21);
    }
  });

  it.each(["token_bucket", "gcra"] as const)("%s admits its burst at once, then the refill rate", async (algorithm) => {
    const rule = limiterRule({ algorithm, limit: 10, windowMs: 1000, burst: 30 });
    const subject = freshTenant();
    expect(await admittedCount([rule], Array(40).fill(T0), subject)).toBe(30);
    // One request every 10 ms for 2 s: the rate (10/s) is what gets through.
    const steady = Array.from({ length: 200 }, (_, i) => T0 + 10 + i * 10);
    const admitted = await admittedCount([rule], steady, subject);
    expect(admitted).toBeGreaterThanOrEqual(19);
    expect(admitted).toBeLessThanOrEqual(21);
  });
});

describe("one decision over several rules", () => {
  it("a refusal by one rule leaves every other rule's counters untouched", async () => {
    const subject = freshTenant();
    const tight = limiterRule({ name: "tight", algorithm: "fixed_window", limit: 1, windowMs: 60_000 });
    const others = (["sliding_window", "sliding_log", "token_bucket", "gcra"] as const).map((algorithm) =>
      limiterRule({ name: algorithm.replace("_", "-"), algorithm, limit: 100, windowMs: 60_000 }),
    );
    await limiter.decide([tight, ...others], subject, { nowMs: T0 });
    const snapshot = async () => {
      const keys = (await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`)).sort();
      return Promise.all(
        keys.map(async (k) => [
          k,
          (await redis.type(k)) === "zset" ? await redis.zrange(k, 0, -1) : await redis.get(k),
        ]),
      );
    };
    const before = await snapshot();
    const refused = await limiter.decide([tight, ...others], subject, { nowMs: T0 + 10 });
    expect(refused.allowed).toBe(false);
    expect(refused.results.slice(1).every((r) => r.allowed && r.remaining === 99)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it("a shadow rule reports would-refuse and never refuses", async () => {
    const subject = freshTenant();
    const shadow = limiterRule({ name: "trial", limit: 1, mode: "shadow" });
    const enforce = limiterRule({ name: "real", limit: 10 });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await limiter.decide([enforce, shadow], subject, { nowMs: T0 + i }));
    expect(results.map((d) => d.allowed)).toEqual([true, true, true]);
    expect(results.map((d) => d.results[1]!.allowed)).toEqual([true, false, false]);
    expect(results[2]!.results[0]!.remaining).toBe(7);
  });

  it("peek shows the remaining quota without consuming any", async () => {
    const subject = freshTenant();
    const rule = limiterRule({ algorithm: "sliding_log", limit: 5 });
    await limiter.decide([rule], subject, { nowMs: T0 });
    const peeks = [
      await limiter.peek([rule], subject, { nowMs: T0 + 1 }),
      await limiter.peek([rule], subject, { nowMs: T0 + 2 }),
    ];
    expect(peeks.map((d) => d.results[0]!.remaining)).toEqual([4, 4]);
  });

  it.each(ALGORITHMS)(
    "peek tells whether and when a request of the rule's cost passes, as decide would, without consuming (%s)",
    async (algorithm) => {
      const subject = freshTenant();
      const rule = limiterRule({ algorithm, limit: 4, windowMs: 10_000, cost: 2 });
      await limiter.decide([rule], subject, { nowMs: T0 });
      const open = await limiter.peek([rule], subject, { nowMs: T0 + 1 });
      expect([open.allowed, open.results[0]!.retryAfterMs]).toEqual([true, 0]);
      await limiter.decide([rule], subject, { nowMs: T0 + 1 });
      const full = await limiter.peek([rule], subject, { nowMs: T0 + 2 });
      const refused = await limiter.decide([rule], subject, { nowMs: T0 + 2 });
      expect(full.allowed).toBe(false);
      expect(full.results[0]!.remaining).toBe(0);
      expect(full.results[0]!.retryAfterMs).toBeGreaterThan(0);
      expect(full.results[0]!.retryAfterMs).toBe(refused.results[0]!.retryAfterMs);
      const passes = await limiter.decide([rule], subject, { nowMs: T0 + 2 + full.results[0]!.retryAfterMs });
      expect(passes.allowed).toBe(true);
    },
  );
});

describe("keys", () => {
  it("one subject key holds the compact states of fixed_window, sliding_window, token_bucket and gcra rules", async () => {
    const subject = freshTenant();
    const usual = ["fixed_window", "sliding_window", "token_bucket", "gcra"] as const;
    const rules = usual.map((algorithm) =>
      limiterRule({ name: algorithm.replace("_", "-"), algorithm, limit: 100, windowMs: 60_000 }),
    );
    await limiter.decide(rules, subject);
    const keys = await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`);
    expect(keys).toHaveLength(1);
    // Four fields, each a compact integer in base 64 (at most 9 characters below 2^53).
    expect(await redis.get(keys[0]!)).toMatch(
      /^f[a-z-]+=[0-9A-Za-z_-]{1,9},w[a-z-]+=[0-9A-Za-z_-]{1,9},t[a-z-]+=[0-9A-Za-z_-]{1,9},g[a-z-]+=[0-9A-Za-z_-]{1,9}$/,
    );
    // An interval whose denominator exceeds 2^11 (1000 / 3001 ms) is kept as text, exactly, in the same key.
    const odd = limiterRule({ name: "odd", algorithm: "gcra", limit: 3001, windowMs: 1000 });
    // Explicit time: its keys keep a real-time TTL floor; in Redis time this one would live ~1 ms.
    await limiter.decide([odd], subject, { nowMs: Date.now() });
    expect(await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`)).toEqual(keys);
    expect(await redis.get(keys[0]!)).toMatch(/,godd=\d+:0\.\d+$/);
  });

  it("a rule written alone keeps its subject's other rules alive: the key's TTL never drops below what they need", async () => {
    const subject = freshTenant();
    // Redis time: TTLs as production writes them. After one request the long rule needs 720 s.
    const long = limiterRule({ name: "long", algorithm: "token_bucket", limit: 5, windowMs: 3_600_000 });
    const short = limiterRule({ name: "short", algorithm: "token_bucket", limit: 5, windowMs: 1000 });
    await limiter.decide([long], subject);
    const [key] = await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`);
    await limiter.decide([short], subject); // needs 200 ms itself
    expect(await redis.pttl(key!)).toBeGreaterThan(600_000);
    const again = await limiter.decide([long], subject);
    expect(again.results[0]!.remaining).toBe(3);
    await redis.del(key!);
  });

  it("a subject key's TTL is what its rules need rounded up to 3 significant digits, never shorter", async () => {
    const subject = freshTenant();
    // One request fills this bucket for 100,100,001 ms: the key is written to live 101,000,000 ms
    // (1 % more at most; decide.lua formats each rounded TTL once), so its PTTL read back stays above
    // what the rule needs for the next 15 minutes.
    const rule = limiterRule({ name: "odd-ttl", algorithm: "token_bucket", limit: 1, windowMs: 100_100_001 });
    expect((await limiter.decide([rule], subject)).allowed).toBe(true);
    const [key] = await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`);
    const ttl = await redis.pttl(key!);
    expect(ttl).toBeGreaterThan(100_100_001);
    expect(ttl).toBeLessThanOrEqual(101_000_000);
    expect((await limiter.decide([rule], subject)).allowed).toBe(false);
    await redis.del(key!);
  });

  /** The fields a subject key holds ("<field>=<state>" entries joined by ","), sorted. */
  const fieldsOf = async (key: string) =>
    (await redis.get(key))!
      .split(",")
      .map((entry) => entry.split("=")[0])
      .sort();

  it("a key drops the fields of rules no longer applied once their time has passed (a TAT, a penalty's end)", async () => {
    const subject = freshTenant();
    const kept = limiterRule({ name: "kept", algorithm: "token_bucket", limit: 5, windowMs: 3_600_000 });
    // One request puts this bucket's TAT 1 s ahead: the state of a rule about to be deleted.
    const gone = limiterRule({ name: "gone", algorithm: "token_bucket", limit: 1000, windowMs: 1_000_000 });
    // Its second request starts a 1 s penalty; its own window counter lives on for the minute.
    const pen = limiterRule({ name: "pen", algorithm: "fixed_window", limit: 1, windowMs: 60_000, blockMs: 1000 });
    // The minute window must not roll over during the test's 1.1 s wait (it would let `pen` through).
    await awayFromWindowEdge(60_000, 5_000);
    expect((await limiter.decide([kept, gone, pen], subject)).allowed).toBe(true);
    expect((await limiter.decide([pen], subject)).allowed).toBe(false);
    const [key] = await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`);
    expect(await fieldsOf(key!)).toEqual(["bpen", "fpen", "tgone", "tkept"]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.decide([kept], subject)).results[0]!.remaining).toBe(3);
    expect(await fieldsOf(key!)).toEqual(["fpen", "tkept"]);
    // Nothing was lost: the window counter still refuses, and the bucket counts on.
    expect((await limiter.decide([pen], subject)).allowed).toBe(false);
    expect((await limiter.decide([kept], subject)).results[0]!.remaining).toBe(2);
    await redis.del(key!);
  });

  it("with explicit time (a replay, another instance's clock) a key keeps every field", async () => {
    const subject = freshTenant();
    const kept = limiterRule({ name: "kept", algorithm: "gcra", limit: 5, windowMs: 3_600_000 });
    const gone = limiterRule({ name: "gone", algorithm: "gcra", limit: 1000, windowMs: 1000 });
    const now = Date.now();
    await limiter.decide([kept, gone], subject, { nowMs: now });
    await limiter.decide([kept], subject, { nowMs: now + 60_000 });
    const [key] = await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`);
    expect(await fieldsOf(key!)).toEqual(["ggone", "gkept"]);
    await redis.del(key!);
  });

  // Two tests, because one could not be exact under load: with a 1 s window a token bucket's key
  // lives 200 ms (1 of 5 units back at 5/s), so on a loaded machine it had legitimately expired
  // before the SCAN and the PTTL reads reached it (PTTL -2, issue 15 point 14). The TTLs are read
  // with a window far longer than any scheduling delay; expiry is checked with a short one.
  it("every key written has a TTL no longer than its rule needs", async () => {
    const windowMs = 600_000;
    const subject = freshTenant();
    const rules = ALGORITHMS.map((algorithm) =>
      limiterRule({ name: algorithm.replace("_", "-"), algorithm, limit: 5, windowMs }),
    );
    await limiter.decide(rules, subject);
    const keys = await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`);
    expect(keys).toHaveLength(2); // the subject key and sliding_log's sorted set
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(2 * windowMs); // sliding_window keeps a window as "previous"
    }
  });

  it("nothing remains once every rule's state has expired", async () => {
    const subject = freshTenant();
    const rules = ALGORITHMS.map((algorithm) =>
      limiterRule({ name: algorithm.replace("_", "-"), algorithm, limit: 5, windowMs: 1000 }),
    );
    await limiter.decide(rules, subject);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await keysByPrefix(redis, `${prefix}{${subject.tenantId}}`)).toEqual([]);
  });
});

describe("concurrency: keys", () => {
  it("one sorted set per rule and subject, hash-tagged, member = lease id, score = expiry, TTL = longest lease", async () => {
    const { tenantId } = freshTenant();
    const rule = limiterRule({ name: "cc", algorithm: "concurrency", limit: 2, windowMs: 30_000 });
    const first = await limiter.decide([rule], { tenantId, keyId: "k" });
    expect(first.lease!.keys).toEqual([`${prefix}{${tenantId}}cccKk`]);
    const [member, score] = await redis.zrange(first.lease!.keys[0]!, 0, -1, "WITHSCORES");
    expect(member).toBe(first.lease!.id);
    expect(Number(score)).toBe(first.nowMs + 30_000);
    const ttl = await redis.pttl(first.lease!.keys[0]!);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(await limiter.release(first.lease!)).toBe(1);
    expect(await limiter.release(first.lease!)).toBe(0);
    expect(await redis.exists(first.lease!.keys[0]!)).toBe(0);
  });
});
