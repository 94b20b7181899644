import { describe, expect, it } from "vitest";
import type { Limiter } from "../../limiter/decide";
import {
  LimiterUnavailableError,
  type Decision,
  type LimiterRule,
  type RuleResult,
  type Subject,
} from "../../limiter/types";
import {
  checkLoginAllowed,
  LOGIN_FAILURES_PER_EMAIL,
  LOGIN_FAILURES_PER_EMAIL_AND_IP,
  LOGIN_FAILURES_PER_IP,
  LOGIN_RULES,
  LOGIN_TENANT,
  loginSubject,
  recordLoginFailure,
} from "./loginLimit";

/**
 * A fixed-window stand-in for the limiter's contract: decide consumes only when every enforce
 * rule allows, and then each allowing rule (shadow too); peek charges nothing.
 */
function countingLimiter(options: { peekFails?: boolean } = {}) {
  const used = new Map<string, number>();
  const subjectOf = (rule: LimiterRule, s: Subject) =>
    rule.scope === "ip" ? s.ip : rule.scope === "key" ? s.keyId : s.identifier;
  const keyOf = (rule: LimiterRule, s: Subject) => `${s.tenantId}|${rule.ref}|${subjectOf(rule, s)}`;
  const results = (rules: LimiterRule[], s: Subject, cost: number): RuleResult[] =>
    rules.map((rule) => {
      const left = rule.limit - (used.get(keyOf(rule, s)) ?? 0);
      const allowed = left >= Math.max(cost, 1);
      return {
        rule,
        allowed,
        limit: rule.limit,
        remaining: left,
        resetMs: 0,
        retryAfterMs: allowed ? 0 : 60_000,
        nextMs: 0,
        source: "redis",
      };
    });
  const decision = (r: RuleResult[]): Decision => ({
    allowed: r.every((x) => x.rule.mode === "shadow" || x.allowed),
    unavailable: false,
    retryAfterMs: Math.max(0, ...r.filter((x) => !x.allowed).map((x) => x.retryAfterMs)),
    nowMs: 1_000_000,
    results: r,
  });
  const calls = { peek: 0, decide: 0 };
  const limiter: Limiter = {
    giveBack: () => Promise.reject(new Error("no rule here is charged by response")),
    decideThen: () => Promise.reject(new Error("no decision here depends on another")),
    async peek(rules, s) {
      calls.peek++;
      if (options.peekFails) throw new LimiterUnavailableError("redis down");
      return decision(results(rules, s, 0));
    },
    async decide(rules, s) {
      calls.decide++;
      const r = results(rules, s, 1);
      const d = decision(r);
      if (d.allowed)
        for (const x of r) if (x.allowed) used.set(keyOf(x.rule, s), (used.get(keyOf(x.rule, s)) ?? 0) + 1);
      return d;
    },
    async release() {
      return 0;
    },
  };
  return { limiter, used, calls };
}

async function fail(limiter: Limiter, ip: string, email: string, times: number) {
  for (let i = 0; i < times; i++) {
    const subject = loginSubject(ip, email);
    expect((await checkLoginAllowed(limiter, subject)).allowed).toBe(true);
    await recordLoginFailure(limiter, subject);
  }
}

describe("login limit rules", () => {
  it("are sliding windows of 15 min, failing open, under the internal tenant -login: per address, per (email, address), per email", () => {
    expect(LOGIN_RULES.map((r) => [r.scope, r.limit, r.windowMs, r.algorithm, r.failMode, r.mode])).toEqual([
      ["ip", LOGIN_FAILURES_PER_IP, 900_000, "sliding_window", "open", "enforce"],
      ["key", LOGIN_FAILURES_PER_EMAIL_AND_IP, 900_000, "sliding_window", "open", "enforce"],
      ["identifier", LOGIN_FAILURES_PER_EMAIL, 900_000, "sliding_window", "open", "enforce"],
    ]);
    expect([LOGIN_FAILURES_PER_IP, LOGIN_FAILURES_PER_EMAIL_AND_IP, LOGIN_FAILURES_PER_EMAIL]).toEqual([10, 5, 50]);
  });

  it("key the email and the (email, address) pair by digests, never the address itself", () => {
    const subject = loginSubject("10.0.0.1", "ops@example.com");
    expect(subject.tenantId).toBe(LOGIN_TENANT);
    expect(subject.ip).toBe("10.0.0.1");
    expect(subject.identifier).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(subject.keyId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(`${subject.identifier}${subject.keyId}`).not.toContain("ops");
    const other = loginSubject("10.0.0.2", "ops@example.com");
    expect(other.identifier).toBe(subject.identifier);
    expect(other.keyId).not.toBe(subject.keyId);
    // One IPv6 /64 is one address for the pair too.
    expect(loginSubject("2001:db8::1", "ops@example.com").keyId).toBe(
      loginSubject("2001:db8::2", "ops@example.com").keyId,
    );
  });
});

describe("checkLoginAllowed / recordLoginFailure", () => {
  it("allow 5 failures per (email, address), then refuse that address with the wait; the check itself charges nothing", async () => {
    const { limiter } = countingLimiter();
    await fail(limiter, "10.0.0.1", "ops@example.com", LOGIN_FAILURES_PER_EMAIL_AND_IP);
    const subject = loginSubject("10.0.0.1", "ops@example.com");
    const gate = await checkLoginAllowed(limiter, subject);
    expect(gate).toEqual({ allowed: false, retryAfterMs: 60_000, retryAt: new Date(1_060_000) });
    expect(await checkLoginAllowed(limiter, subject)).toEqual(gate);
  });

  it("someone who knows an operator's email cannot lock them out: failures from one address leave every other address free", async () => {
    const { limiter } = countingLimiter();
    await fail(limiter, "198.51.100.66", "ops@example.com", LOGIN_FAILURES_PER_EMAIL_AND_IP);
    expect((await checkLoginAllowed(limiter, loginSubject("198.51.100.66", "ops@example.com"))).allowed).toBe(false);
    expect(await checkLoginAllowed(limiter, loginSubject("10.0.0.1", "ops@example.com"))).toEqual({ allowed: true });
  });

  it("past the email's ceiling (50, spread over many addresses) an address without failures still gets through, and gets one guess", async () => {
    const { limiter } = countingLimiter();
    for (let a = 0; a < LOGIN_FAILURES_PER_EMAIL / LOGIN_FAILURES_PER_EMAIL_AND_IP; a++)
      await fail(limiter, `198.51.100.${a}`, "ops@example.com", LOGIN_FAILURES_PER_EMAIL_AND_IP);
    // The operator, from their own address, is let in to try their (right) password.
    expect(await checkLoginAllowed(limiter, loginSubject("10.0.0.1", "ops@example.com"))).toEqual({ allowed: true });
    // A new guessing address gets one try; once it failed, the ceiling applies to it.
    await fail(limiter, "203.0.113.1", "ops@example.com", 1);
    expect((await checkLoginAllowed(limiter, loginSubject("203.0.113.1", "ops@example.com"))).allowed).toBe(false);
  });

  it("a failure is charged to the address and the pair even when the email's ceiling is full", async () => {
    const { limiter, used } = countingLimiter();
    for (let a = 0; a < LOGIN_FAILURES_PER_EMAIL / LOGIN_FAILURES_PER_EMAIL_AND_IP; a++)
      await fail(limiter, `198.51.100.${a}`, "ops@example.com", LOGIN_FAILURES_PER_EMAIL_AND_IP);
    const subject = loginSubject("203.0.113.2", "ops@example.com");
    await recordLoginFailure(limiter, subject);
    expect(used.get(`${LOGIN_TENANT}|ip|203.0.113.2`)).toBe(1);
    expect(used.get(`${LOGIN_TENANT}|pair|${subject.keyId}`)).toBe(1);
    expect(used.get(`${LOGIN_TENANT}|email|${subject.identifier}`)).toBe(LOGIN_FAILURES_PER_EMAIL);
  });

  it("count failures per address across emails (10), independently of each email's own count", async () => {
    const { limiter } = countingLimiter();
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) await fail(limiter, "10.0.0.9", `user${i}@example.com`, 1);
    expect((await checkLoginAllowed(limiter, loginSubject("10.0.0.9", "fresh@example.com"))).allowed).toBe(false);
    expect((await checkLoginAllowed(limiter, loginSubject("10.0.0.10", "fresh@example.com"))).allowed).toBe(true);
  });

  it("a refusal charges nothing", async () => {
    const { limiter, used } = countingLimiter();
    await fail(limiter, "10.0.0.1", "ops@example.com", LOGIN_FAILURES_PER_EMAIL_AND_IP);
    const before = new Map(used);
    expect((await checkLoginAllowed(limiter, loginSubject("10.0.0.1", "ops@example.com"))).allowed).toBe(false);
    expect(used).toEqual(before);
  });

  it("fail open when Redis cannot answer the peek", async () => {
    const { limiter, calls } = countingLimiter({ peekFails: true });
    expect(await checkLoginAllowed(limiter, loginSubject("10.0.0.1", "ops@example.com"))).toEqual({ allowed: true });
    expect(calls.decide).toBe(0);
  });
});
