import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { rateLimitHeaders, retryAfterSeconds, violatedPolicies } from "./headers";
import type { Decision, RuleResult } from "./types";

const NOW = 1_700_000_000_250;

function result(overrides: Partial<RuleResult> & { name: string }): RuleResult {
  const { name, ...rest } = overrides;
  return {
    rule: limiterRule({ name, limit: 100, windowMs: 60_000 }),
    allowed: true,
    limit: 100,
    remaining: 50,
    resetMs: 30_000,
    retryAfterMs: 0,
    nextMs: 16_100,
    source: "redis",
    ...rest,
  };
}

function decision(results: RuleResult[], allowed = true, retryAfterMs = 0): Decision {
  return { allowed, unavailable: false, retryAfterMs, nowMs: NOW, results };
}

describe("rateLimitHeaders", () => {
  it("gives no headers when no rule applied", () => {
    expect(rateLimitHeaders(decision([]))).toEqual({});
  });

  it("formats an admitted request exactly as the contract's examples", () => {
    const perKey = result({ name: "per-key", remaining: 42, nextMs: 16_100 });
    const total = result({
      name: "tenant-total",
      rule: limiterRule({ name: "tenant-total", limit: 5000, windowMs: 3_600_000 }),
      limit: 5000,
      remaining: 4000,
      nextMs: 100_000,
    });
    expect(rateLimitHeaders(decision([total, perKey]))).toEqual({
      "RateLimit-Policy": '"tenant-total";q=5000;w=3600, "per-key";q=100;w=60',
      RateLimit: '"per-key";r=42;t=17, "tenant-total";r=4000;t=100',
      "X-RateLimit-Limit": "100",
      "X-RateLimit-Remaining": "42",
      "X-RateLimit-Reset": String(Math.ceil((NOW + 16_100) / 1000)),
    });
  });

  it("gives a bucket's capacity (burst) as X-RateLimit-Limit, so Remaining never exceeds it; the policy keeps the rate", () => {
    const bucket = result({
      name: "burst",
      rule: limiterRule({ name: "burst", algorithm: "token_bucket", limit: 10, windowMs: 1000, burst: 20 }),
      limit: 10,
      remaining: 19,
      nextMs: 100,
    });
    const headers = rateLimitHeaders(decision([bucket]));
    expect(headers["X-RateLimit-Limit"]).toBe("20");
    expect(headers["X-RateLimit-Remaining"]).toBe("19");
    expect(headers["RateLimit-Policy"]).toBe('"burst";q=10;w=1');
  });

  it("puts a refusing rule first, uses its retry time and adds Retry-After in whole seconds", () => {
    const ok = result({ name: "ok", remaining: 0, nextMs: 500 });
    const refusing = result({ name: "per-key", allowed: false, remaining: 0, retryAfterMs: 1234 });
    const headers = rateLimitHeaders(decision([ok, refusing], false, 1234));
    expect(headers["RateLimit"]).toBe('"per-key";r=0;t=2, "ok";r=0;t=1');
    expect(headers["Retry-After"]).toBe("2");
    expect(headers["X-RateLimit-Reset"]).toBe(String(Math.ceil((NOW + 1234) / 1000)));
  });

  it("lists shadow rules in the policy only, never in RateLimit or X-RateLimit-*", () => {
    const shadow = result({
      name: "trial",
      rule: limiterRule({ name: "trial", mode: "shadow", limit: 100 }),
      allowed: false,
    });
    const headers = rateLimitHeaders(decision([shadow]));
    expect(headers).toEqual({ "RateLimit-Policy": '"trial";q=100;w=60' });
  });
});

describe("retryAfterSeconds", () => {
  it.each([
    [0, 1],
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [59_999, 60],
  ])("%i ms -> %i s (ceil, at least 1)", (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });
});

describe("violatedPolicies", () => {
  it("names only enforce rules that refused", () => {
    const d = decision(
      [
        result({ name: "a", allowed: false }),
        result({ name: "b" }),
        result({ name: "c", allowed: false, rule: limiterRule({ name: "c", mode: "shadow" }) }),
      ],
      false,
    );
    expect(violatedPolicies(d)).toEqual(["a"]);
  });
});
