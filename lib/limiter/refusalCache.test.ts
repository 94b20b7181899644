import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { RefusalCache } from "./refusalCache";
import type { Decision } from "./types";

const refused: Decision = {
  allowed: false,
  unavailable: false,
  retryAfterMs: 5000,
  nowMs: 1000,
  results: [
    {
      rule: limiterRule(),
      allowed: false,
      limit: 10,
      remaining: 0,
      resetMs: 8000,
      retryAfterMs: 5000,
      nextMs: 5000,
      source: "redis",
    },
  ],
};

describe("RefusalCache", () => {
  it("answers an identical request until its retry time, with times aged by the elapsed time", () => {
    const cache = new RefusalCache();
    cache.remember("t", "p:{t}:a", refused, 100);
    const hit = cache.get("p:{t}:a", 2100);
    expect(hit).toMatchObject({ allowed: false, retryAfterMs: 3000, nowMs: 3000 });
    expect(hit!.results[0]).toMatchObject({ retryAfterMs: 3000, resetMs: 6000, source: "cache" });
    expect(cache.get("p:{t}:a", 5100)).toBeUndefined();
  });

  it("never caches admitted or unavailable decisions", () => {
    const cache = new RefusalCache();
    cache.remember("t", "a", { ...refused, allowed: true, retryAfterMs: 0 }, 0);
    cache.remember("t", "b", { ...refused, unavailable: true }, 0);
    expect(cache.size).toBe(0);
  });

  it("drops a tenant's entries when its rules change, and only those", () => {
    const cache = new RefusalCache();
    cache.remember("t1", "p:{t1}:x", refused, 0);
    cache.remember("t2", "p:{t2}:x", refused, 0);
    cache.rulesLoaded("t1", "v1");
    cache.rulesLoaded("t2", "v1");
    cache.remember("t1", "p:{t1}:x", refused, 0);
    cache.remember("t2", "p:{t2}:x", refused, 0);
    cache.rulesLoaded("t1", "v2");
    expect(cache.get("p:{t1}:x", 1)).toBeUndefined();
    expect(cache.get("p:{t2}:x", 1)).toBeDefined();
  });

  it("keeps a tenant's refusals when its rules are reloaded unchanged (the periodic full refresh)", () => {
    const cache = new RefusalCache();
    cache.rulesLoaded("t1", "v1");
    cache.remember("t1", "p:{t1}:x", refused, 0);
    for (let i = 0; i < 3; i++) cache.rulesLoaded("t1", "v1");
    expect(cache.get("p:{t1}:x", 1)).toBeDefined();
    cache.rulesLoaded("t1", "");
    expect(cache.get("p:{t1}:x", 1)).toBeUndefined();
  });

  it("indexes entries by tenant: dropping one tenant leaves the others' whole, evicted entries leave no index behind", () => {
    const cache = new RefusalCache(3);
    for (let i = 0; i < 5; i++) cache.remember(`t${i % 2}`, `f${i}`, refused, 0);
    expect(cache.size).toBe(3);
    cache.dropTenant("t0");
    expect(cache.size).toBe(1);
    expect(cache.get("f3", 1)).toBeDefined();
    cache.dropTenant("t1");
    expect(cache.size).toBe(0);
    expect((cache as unknown as { byTenant: Map<string, unknown> }).byTenant.size).toBe(0);
  });

  it("stays within its size bound, evicting the oldest", () => {
    const cache = new RefusalCache(2);
    cache.remember("t", "a", refused, 0);
    cache.remember("t", "b", refused, 0);
    cache.remember("t", "c", refused, 0);
    expect(cache.size).toBe(2);
    expect(cache.get("a", 1)).toBeUndefined();
  });

  it("answers a client under a penalty until the penalty's end (injected clock), though the counter has room sooner", () => {
    const cache = new RefusalCache();
    const rule = limiterRule({ blockMs: 60_000 });
    const penalised: Decision = {
      allowed: false,
      unavailable: false,
      retryAfterMs: 60_000,
      nowMs: 1000,
      results: [
        {
          rule,
          allowed: false,
          penalized: true,
          limit: 10,
          remaining: 0,
          resetMs: 60_000,
          retryAfterMs: 60_000,
          nextMs: 60_000,
          source: "redis",
        },
      ],
    };
    cache.remember("t", "f", penalised, 0);
    expect(cache.get("f", 59_000)).toMatchObject({ allowed: false, retryAfterMs: 1000 });
    expect(cache.get("f", 59_000)!.results[0]).toMatchObject({ penalized: true, source: "cache" });
    expect(cache.get("f", 60_000)).toBeUndefined();
  });
});
