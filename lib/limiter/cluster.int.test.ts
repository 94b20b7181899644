/**
 * The limiter on a real Redis Cluster (3 masters started by the test on loopback ports): the same
 * decisions as on one node, tenants' keys spread over every master, and no CROSSSLOT error even
 * with several rules (several keys) in one script call.
 */
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisCluster, type RedisClusterHandle } from "@/test/support/redisCluster";
import { limiterRule } from "@/test/support/rules";
import { createRedisClient, type RedisClient } from "../redis/connect";
import { createLimiter, type Limiter } from "./decide";
import { heartbeatLibrary, housekeepingFor, removeUnusedLibraries } from "./decideLibraries";
import { decideLibrary } from "./decideScript";
import { ALGORITHMS } from "./types";

let cluster: RedisClusterHandle;
let redis: RedisClient;
let limiter: Limiter;
const T0 = 1_700_000_000_000;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  redis = createRedisClient({ url: cluster.url, cluster: true, timeoutMs: 2000, autoPipelining: false });
  limiter = createLimiter({ redis, prefix: "cl:", timeoutMs: 2000 });
});

afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

describe("Redis Cluster", () => {
  it("decides every algorithm exactly, several rules in one call, with no CROSSSLOT error", async () => {
    const rules = ALGORITHMS.map((algorithm) =>
      limiterRule({ name: algorithm.replace("_", "-"), algorithm, limit: 3, windowMs: 60_000 }),
    );
    const outcomes = [];
    for (let i = 0; i < 5; i++) {
      const d = await limiter.decide(rules, { tenantId: "tenant-a", keyId: "k" }, { nowMs: T0 + i });
      expect(d.results.every((r) => r.source === "redis")).toBe(true);
      outcomes.push(d.allowed);
    }
    expect(outcomes).toEqual([true, true, true, false, false]);
  });

  it("concurrency: slots taken beside other rules in one call and given back by release.lua, no CROSSSLOT error", async () => {
    const rules = [
      limiterRule({ name: "inflight", algorithm: "concurrency", limit: 2, windowMs: 60_000 }),
      limiterRule({ name: "tenant-inflight", scope: "tenant", algorithm: "concurrency", limit: 5, windowMs: 60_000 }),
      limiterRule({ name: "rate", algorithm: "sliding_window", limit: 100 }),
    ];
    const subject = { tenantId: "tenant-cc", keyId: "k" };
    const first = await limiter.decide(rules, subject);
    const second = await limiter.decide(rules, subject);
    const third = await limiter.decide(rules, subject);
    expect([first.allowed, second.allowed, third.allowed]).toEqual([true, true, false]);
    expect(third.lease).toBeUndefined();
    expect(first.lease!.keys).toHaveLength(2);
    expect(await limiter.release(first.lease!)).toBe(2);
    expect((await limiter.decide(rules, subject)).allowed).toBe(true);
  });

  it("count by response: a reservation under several rules (several keys) is given back by give_back.lua, no CROSSSLOT error", async () => {
    const rules = ALGORITHMS.map((algorithm, i) =>
      limiterRule({
        name: `by-response-${i}`,
        scope: i % 2 ? "tenant" : "key",
        algorithm,
        limit: 1,
        windowMs: 60_000,
        chargeOn: ["4xx"],
      }),
    );
    const subject = { tenantId: "tenant-gb", keyId: "k" };
    const reserved = await limiter.decide(rules, subject, { nowMs: T0 });
    expect(reserved.allowed).toBe(true);
    expect((await limiter.decide(rules, subject, { nowMs: T0 + 1 })).allowed).toBe(false);
    expect(await limiter.giveBack(reserved, rules, subject, { nowMs: T0 + 2 })).toBe(rules.length);
    expect((await limiter.decide(rules, subject, { nowMs: T0 + 3 })).allowed).toBe(true);
  });

  it("decide libraries no instance uses are deleted on every master (this cluster is the test's own)", async () => {
    const masters = (redis as Cluster).nodes("master");
    const old = "sluice_00000000deadbeef";
    const code = `#!lua name=${old}\nredis.register_function('sluice_decide_00000000deadbeef', function() return 1 end)`;
    await Promise.all(masters.map((node) => node.call("FUNCTION", "LOAD", "REPLACE", code)));
    await limiter.decide([limiterRule({})], { tenantId: "tenant-lib", keyId: "k" }); // loads this version's
    const h = { ...housekeepingFor("cl:"), graceMs: 0 };
    await heartbeatLibrary(redis, decideLibrary().library, h);
    expect(await removeUnusedLibraries(redis, decideLibrary().library, h)).toEqual([old]);
    for (const node of masters) expect(await node.call("FUNCTION", "LIST", "LIBRARYNAME", old)).toEqual([]);
  });

  it("admits exactly `limit` of 300 concurrent decisions", async () => {
    const rule = limiterRule({ algorithm: "sliding_window", limit: 77 });
    const decisions = await Promise.all(
      Array.from({ length: 300 }, () => limiter.decide([rule], { tenantId: "tenant-b", keyId: "k" }, { nowMs: T0 })),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(77);
  });

  it("spreads tenants' keys over every master", async () => {
    const rule = limiterRule({ limit: 5 });
    const tenants = Array.from({ length: 30 }, (_, i) => `spread${i}`);
    for (const tenantId of tenants) await limiter.decide([rule], { tenantId, keyId: "k" }, { nowMs: T0 });
    const owners = new Set(await Promise.all(tenants.map((t) => cluster.slotOwnerPort(`cl:{${t}}:fw:r:k:k`))));
    expect(owners.size).toBe(3);
  });
});

describe("Redis Cluster lost entirely, then back", () => {
  it("never replays decisions sent while it was down: after recovery the full limit is available", async () => {
    const rule = limiterRule({ name: "outage", algorithm: "fixed_window", limit: 3, failMode: "open" });
    const subject = { tenantId: "tenant-outage", keyId: "k" };
    // Sent while the nodes die, before the client has noticed: answered by the fail mode, so they
    // must not count later.
    const killed = Promise.all(cluster.nodes.map((node) => node.kill()));
    // One turn for the kills to be signalled: a decision made while nothing else is in flight goes
    // out at once, and one sent before the kill would rightly be answered by Redis.
    await new Promise((resolve) => setImmediate(resolve));
    const during = await Promise.all(Array.from({ length: 20 }, () => limiter.decide([rule], subject, { nowMs: T0 })));
    await killed;
    expect(during.every((d) => d.allowed && d.results[0]!.source === "fail_open")).toBe(true);
    for (const node of cluster.nodes) await node.restart();
    await cluster.waitForState(true, 30_000);
    const deadline = Date.now() + 30_000;
    let first = await limiter.decide([rule], subject, { nowMs: T0 });
    while (first.results[0]!.source !== "redis" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      first = await limiter.decide([rule], subject, { nowMs: T0 });
    }
    const rest = [];
    for (let i = 0; i < 3; i++) rest.push(await limiter.decide([rule], subject, { nowMs: T0 }));
    expect([first, ...rest].map((d) => [d.results[0]!.source, d.allowed])).toEqual([
      ["redis", true],
      ["redis", true],
      ["redis", true],
      ["redis", false],
    ]);
  });

  it("keeps a penalty in the subject key's slot: a sliding_log rule's penalty refuses with no CROSSSLOT error", async () => {
    const rules = [
      limiterRule({ name: "log", algorithm: "sliding_log", limit: 1, windowMs: 1000, blockMs: 30_000 }),
      limiterRule({ name: "gc", algorithm: "gcra", limit: 100, windowMs: 1000, blockMs: 30_000 }),
    ];
    const subject = { tenantId: "tenant-pen", keyId: "k" };
    expect((await limiter.decide(rules, subject, { nowMs: T0 })).allowed).toBe(true);
    expect(await limiter.decide(rules, subject, { nowMs: T0 + 1 })).toMatchObject({
      allowed: false,
      retryAfterMs: 30_000,
    });
    const later = await limiter.decide(rules, subject, { nowMs: T0 + 10_001 });
    expect(later).toMatchObject({ allowed: false, retryAfterMs: 20_000 });
    expect(later.results.map((r) => r.penalized ?? false)).toEqual([true, false]);
  });
});
