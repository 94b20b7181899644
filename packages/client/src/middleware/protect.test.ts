import { describe, expect, it } from "vitest";
import type { CheckResult } from "../sluiceClient";
import { decisionHeaders } from "./protect";

const decision = (over: Partial<CheckResult> = {}): CheckResult => ({
  allowed: true,
  limit: 100,
  capacity: 100,
  windowMs: 60_000,
  remaining: 42,
  resetMs: 17_000,
  retryAfterMs: 0,
  rule: "per-user",
  rateLimit: { policies: [], remaining: [] },
  ...over,
});

describe("decisionHeaders", () => {
  it("states the rule's RateLimit-Policy (quota and window in seconds) beside RateLimit and the X-RateLimit trio", () => {
    expect(decisionHeaders(decision(), 1_764_000_000_000)).toEqual({
      "RateLimit-Policy": '"per-user";q=100;w=60',
      RateLimit: '"per-user";r=42;t=17',
      "X-RateLimit-Limit": "100",
      "X-RateLimit-Remaining": "42",
      "X-RateLimit-Reset": "1764000017",
    });
  });

  it("adds Retry-After on a refusal and rounds a window up to whole seconds", () => {
    const headers = decisionHeaders(decision({ allowed: false, remaining: 0, retryAfterMs: 1_200, windowMs: 1_500 }));
    expect(headers["RateLimit-Policy"]).toBe('"per-user";q=100;w=2');
    expect(headers["Retry-After"]).toBe("2");
  });
});
