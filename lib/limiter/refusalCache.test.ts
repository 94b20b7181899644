import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { RefusalCache } from "./refusalCache";
import type { Decision } from "./types";

const refused: Decision = {
  allowed: false,
  unavailable: false,
  retryAfterMs: 5000,
  nowMs: 1000,
  results: [{ rule: limiterRule(), allowed: false, limit: 10, remaining: 0, resetMs: 8000, retryAfterMs: 5000, nextMs: 5000, source: "redis" }],
};

describe("RefusalCache", () => {
  it("answers an identical request until its retry time, with times aged by the elapsed time", () => {
    const cache = new RefusalCache();
    cache.remember("p:{t}:a", refused, 100);
    const hit = cache.get("p:{t}:a", 2100);
    expect(hit).toMatchObject({ allowed: false, retryAfterMs: 3000, nowMs: 3000 });
    expect(hit!.results[0]).toMatchObject({ retryAfterMs: 3000, resetMs: 6000, source: "cache" });
    expect(cache.get("p:{t}:a", 5100)).toBeUndefined();
  });

  it("never caches admitted or unavailable decisions", () => {
    const cache = new RefusalCache();
    cache.remember("a", { ...refused, allowed: true, retryAfterMs: 0 }, 0);
    cache.remember("b", { ...refused, unavailable: true }, 0);
    expect(cache.size).toBe(0);
  });

  it("drops a tenant's entries when its rules change, and only those", () => {
    const cache = new RefusalCache();
    cache.remember("p:{t1}:x", refused, 0);
    cache.remember("p:{t2}:x", refused, 0);
    cache.dropTenant("p:{t1}:");
    expect(cache.get("p:{t1}:x", 1)).toBeUndefined();
    expect(cache.get("p:{t2}:x", 1)).toBeDefined();
  });

  it("stays within its size bound, evicting the oldest", () => {
    const cache = new RefusalCache(2);
    cache.remember("a", refused, 0);
    cache.remember("b", refused, 0);
    cache.remember("c", refused, 0);
    expect(cache.size).toBe(2);
    expect(cache.get("a", 1)).toBeUndefined();
  });
});
