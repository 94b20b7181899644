import { describe, expect, it } from "vitest";
import { parseRateLimitHeaders, retryAfterMs } from "./rateLimitHeaders";

describe("parseRateLimitHeaders", () => {
  it("reads every policy, every remaining figure and the X-RateLimit trio", () => {
    const headers = new Headers({
      "ratelimit-policy": '"per-key";q=100;w=60, "tenant-total";q=5000;w=3600',
      ratelimit: '"per-key";r=42;t=17, "tenant-total";r=4000;t=1200',
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "42",
      "x-ratelimit-reset": "1764000017",
      "retry-after": "3",
    });
    expect(parseRateLimitHeaders(headers)).toEqual({
      policies: [
        { name: "per-key", quota: 100, windowSeconds: 60 },
        { name: "tenant-total", quota: 5000, windowSeconds: 3600 },
      ],
      remaining: [
        { name: "per-key", remaining: 42, resetSeconds: 17 },
        { name: "tenant-total", remaining: 4000, resetSeconds: 1200 },
      ],
      limit: 100,
      remainingUnits: 42,
      resetAtEpochSeconds: 1764000017,
      retryAfterMs: 3000,
    });
  });

  it("gives empty lists for an answer no rule applied to, and ignores malformed fields", () => {
    expect(parseRateLimitHeaders(new Headers())).toEqual({ policies: [], remaining: [] });
    const bad = parseRateLimitHeaders(new Headers({ ratelimit: '"unterminated;r=1', "x-ratelimit-limit": "lots" }));
    expect(bad.remaining).toEqual([]);
    expect(bad.limit).toBeUndefined();
  });
});

describe("retryAfterMs", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("120")).toBe(120_000);
    const now = Date.parse("2026-11-24T12:00:00Z");
    expect(retryAfterMs("Tue, 24 Nov 2026 12:00:05 GMT", now)).toBe(5_000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
