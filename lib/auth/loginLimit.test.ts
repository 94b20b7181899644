import { describe, expect, it } from "vitest";
import type { Limiter } from "../limiter/decide";
import { LimiterUnavailableError, type Decision, type LimiterRule, type RuleResult, type Subject } from "../limiter/types";
import { checkLoginAllowed, LOGIN_FAILURES_PER_EMAIL, LOGIN_FAILURES_PER_IP, LOGIN_RULES, LOGIN_TENANT, loginSubject, recordLoginFailure } from "./loginLimit";

/** A fixed-window stand-in for the limiter's contract: all-or-nothing decide, peek charges nothing. */
function countingLimiter(options: { peekFails?: boolean } = {}) {
  const used = new Map<string, number>();
  const keyOf = (rule: LimiterRule, s: Subject) => `${s.tenantId}|${rule.ref}|${rule.scope === "ip" ? s.ip : s.identifier}`;
  const results = (rules: LimiterRule[], s: Subject, cost: number): RuleResult[] =>
    rules.map((rule) => {
      const left = rule.limit - (used.get(keyOf(rule, s)) ?? 0);
      const allowed = left >= cost;
      return { rule, allowed, limit: rule.limit, remaining: allowed ? left - cost : left, resetMs: 0, retryAfterMs: allowed ? 0 : 60_000, nextMs: 0, source: "redis" };
    });
  const decision = (r: RuleResult[]): Decision => ({
    allowed: r.every((x) => x.allowed),
    unavailable: false,
    retryAfterMs: Math.max(0, ...r.filter((x) => !x.allowed).map((x) => x.retryAfterMs)),
    nowMs: 1_000_000,
    results: r,
  });
  const calls = { peek: 0, decide: 0 };
  const limiter: Limiter = {
    async peek(rules, s) {
      calls.peek++;
      if (options.peekFails) throw new LimiterUnavailableError("redis down");
      return decision(results(rules, s, 0));
    },
    async decide(rules, s) {
      calls.decide++;
      const r = results(rules, s, 1);
      const d = decision(r);
      if (d.allowed) for (const rule of rules) used.set(keyOf(rule, s), (used.get(keyOf(rule, s)) ?? 0) + 1);
      return d;
    },
  };
  return { limiter, used, calls };
}

describe("login limit rules", () => {
  it("are sliding windows of 15 min, failing open, under the internal tenant -login", () => {
    expect(LOGIN_RULES.map((r) => [r.scope, r.limit, r.windowMs, r.algorithm, r.failMode, r.mode])).toEqual([
      ["ip", LOGIN_FAILURES_PER_IP, 900_000, "sliding_window", "open", "enforce"],
      ["identifier", LOGIN_FAILURES_PER_EMAIL, 900_000, "sliding_window", "open", "enforce"],
    ]);
    expect([LOGIN_FAILURES_PER_IP, LOGIN_FAILURES_PER_EMAIL]).toEqual([10, 5]);
  });

  it("key the email by a digest, never the address itself", () => {
    const subject = loginSubject("10.0.0.1", "ops@example.com");
    expect(subject.tenantId).toBe(LOGIN_TENANT);
    expect(subject.ip).toBe("10.0.0.1");
    expect(subject.identifier).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(subject.identifier).not.toContain("ops");
    expect(loginSubject("10.0.0.2", "ops@example.com").identifier).toBe(subject.identifier);
  });
});

describe("checkLoginAllowed / recordLoginFailure", () => {
  it("allow 5 failures per email, then refuse with the wait; the check itself charges nothing", async () => {
    const { limiter } = countingLimiter();
    const subject = loginSubject("10.0.0.1", "ops@example.com");
    for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL; i++) {
      expect(await checkLoginAllowed(limiter, subject)).toEqual({ allowed: true, charged: false });
      await checkLoginAllowed(limiter, subject);
      await recordLoginFailure(limiter, subject);
    }
    const gate = await checkLoginAllowed(limiter, subject);
    expect(gate).toEqual({ allowed: false, retryAfterMs: 60_000, retryAt: new Date(1_060_000) });
  });

  it("count failures per IP across emails (10), independently of each email's own count", async () => {
    const { limiter } = countingLimiter();
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) {
      const subject = loginSubject("10.0.0.9", `user${i}@example.com`);
      expect((await checkLoginAllowed(limiter, subject)).allowed).toBe(true);
      await recordLoginFailure(limiter, subject);
    }
    expect((await checkLoginAllowed(limiter, loginSubject("10.0.0.9", "fresh@example.com"))).allowed).toBe(false);
    expect((await checkLoginAllowed(limiter, loginSubject("10.0.0.10", "fresh@example.com"))).allowed).toBe(true);
  });

  it("a refusal charges neither rule (the other IP's email budget is untouched)", async () => {
    const { limiter, used } = countingLimiter();
    const first = loginSubject("10.0.0.1", "ops@example.com");
    for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL; i++) await recordLoginFailure(limiter, first);
    const before = new Map(used);
    expect((await checkLoginAllowed(limiter, loginSubject("10.0.0.2", "ops@example.com"))).allowed).toBe(false);
    expect(used).toEqual(before);
  });

  it("fail open when Redis cannot answer the peek", async () => {
    const { limiter, calls } = countingLimiter({ peekFails: true });
    expect(await checkLoginAllowed(limiter, loginSubject("10.0.0.1", "ops@example.com"))).toEqual({ allowed: true, charged: false });
    expect(calls.decide).toBe(0);
  });
});
