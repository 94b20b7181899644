/**
 * What `decide` sends to Redis and how it reads the reply, with a fake Redis client
 * (test/support/fakeDecideRedis.ts): the time it passes, sending at once or batching while a call is
 * in flight (each rule spec once, each key once), a penalty's second key and spec fields, and a
 * reply's penalty refusal. Fail modes, deadline and refusal cache: decide.test.ts.
 */
import { describe, expect, it } from "vitest";
import { fakeRedis, rule, subject } from "@/test/support/fakeDecideRedis";
import { createLimiter } from "./decide";

describe("decide", () => {
  it("passes explicit time, or this process's clock in app-time mode, or nothing for Redis TIME", async () => {
    const { client, calls } = fakeRedis(async () => [5, 1, 1, 1, 0, 0, 0]);
    await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).decide([rule({})], subject, { nowMs: 1234 });
    await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30, timeSource: "app", clock: () => 99 }).decide(
      [rule({})],
      subject,
    );
    await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).decide([rule({})], subject);
    // ARGV: spec count m, one packed spec each, the request count, then the first request's fields.
    const nowOfFirstRequest = (args: (string | number)[]) => String(args[2 + Number(args[0])]).split(",")[0];
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
    expect(args.slice(0, 3)).toEqual([2, "fw,2,1000,2,1,1,fshared,0,", "fw,9,1000,9,1,1,fother,0,"]);
    // 3 requests, one argument each: now, commit, lease id ("": no concurrency rule), TTL floor, rule count, then per rule its spec
    // and key numbers and 0 (no second key); the two rules of k3 share its subject key (key 3), sent once.
    expect(args.slice(3)).toEqual([3, ",1,,0,1,1,1,0", ",1,,0,1,1,2,0", ",1,,0,2,1,3,0,2,3,0"]);
    expect(keysOfCall[1]).toEqual(["p:{t1}2Kk1", "p:{t1}2Kk2", "p:{t1}2Kk3"]);
    expect(decisions.map((d) => d.results.length)).toEqual([1, 1, 2]);
  });

  it("sends a sliding_log rule with a penalty its subject key as its second key, and a penalty's ms and field in its spec", async () => {
    const { client, calls, keysOfCall } = fakeRedis(async () => [5, 1, 1, 1, 0, 0, 0]);
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 });
    await limiter.decide([rule({ name: "log", algorithm: "sliding_log", blockMs: 5000 })], subject);
    expect(calls[0]!).toEqual([1, "sl,2,1000,2,1,1,,5000,blog", 1, ",1,,0,1,1,1,2"]);
    expect(keysOfCall[0]).toEqual(["p:{t1}llogKk1", "p:{t1}2Kk1"]);
  });

  it("reads a reply's 2 as a refusal under a penalty in force", async () => {
    const { client } = fakeRedis(async () => [5, 0, 2, 0, 4000, 4000, 4000]);
    const decision = await createLimiter({ redis: client, prefix: "p:", timeoutMs: 30 }).decide(
      [rule({ blockMs: 5000 })],
      subject,
    );
    expect(decision).toMatchObject({ allowed: false, retryAfterMs: 4000, results: [{ penalized: true }] });
  });
});
