import { describe, expect, it } from "vitest";
import { counterKey } from "./keys";
import { SubjectBudget, subjectKeyLifetimeMs } from "./subjectBudget";
import type { Decision, LimiterRule, Subject } from "./types";

const MINUTE_MS = 60_000;

const headerRule: LimiterRule = {
  name: "per-user",
  ref: "per-user",
  scope: "header",
  algorithm: "fixed_window",
  limit: 10,
  windowMs: MINUTE_MS,
  burst: 10,
  cost: 1,
  blockMs: 0,
  failMode: "open",
  mode: "enforce",
  attribute: { source: "header", name: "x-user-id", onMissing: "skip", id: "header:x-user-id" },
};
const keyRule: LimiterRule = { ...headerRule, name: "per-key", ref: "per-key", scope: "key", attribute: undefined };

const subject = (user: string, tenantId = "tenantA"): Subject => ({
  tenantId,
  keyId: "k1",
  attributes: { "header:x-user-id": user },
});

/** A decision as the limiter reports it: admitted or refused, every rule from Redis. */
function decision(rules: LimiterRule[], allowed: boolean): Decision {
  return {
    allowed,
    unavailable: false,
    retryAfterMs: 0,
    nowMs: 0,
    results: rules.map((rule) => ({
      rule,
      allowed,
      limit: rule.limit,
      remaining: 0,
      resetMs: 0,
      retryAfterMs: 0,
      nextMs: 0,
      source: "redis" as const,
    })),
  };
}

function bed(budget: number) {
  let now = 1_000_000;
  const folds: string[] = [];
  const subjects = new SubjectBudget({ budget, clock: () => now, onFold: (rule) => folds.push(rule.name) });
  /** One admitted request of `user`: the key it was counted on. */
  const admit = (user: string, rules = [headerRule], tenantId = "tenantA") => {
    const plan = subjects.fold(rules, subject(user, tenantId));
    subjects.settle(plan, decision(rules, true));
    return counterKey("p:", rules[0]!, plan.subject);
  };
  return { subjects, folds, admit, advance: (ms: number) => void (now += ms) };
}

describe("subject budget", () => {
  it("keeps up to `budget` values on counters of their own, then folds new values into shared overflow counters", () => {
    const { subjects, folds, admit } = bed(3);
    const own = ["u1", "u2", "u3"].map((user) => admit(user));
    expect(own).toEqual(["p:{tenantA}2Hu1", "p:{tenantA}2Hu2", "p:{tenantA}2Hu3"]);
    const folded = Array.from({ length: 50 }, (_, i) => admit(`new${i}`));
    // At most min(budget, 64) overflow counters: the keys stay bounded however many values come.
    expect(new Set(folded).size).toBeLessThanOrEqual(3);
    for (const key of folded) expect(key).toMatch(/^p:\{tenantA\}2H#~[0-2]$/);
    expect(folds).toHaveLength(50);
    // A value held keeps its own counter; a folded value always meets the same overflow counter.
    expect(admit("u2")).toBe("p:{tenantA}2Hu2");
    expect(admit("new7")).toBe(folded[7]);
    expect(subjects.held("tenantA", "per-user")).toBe(3);
    expect(subjects.usage()).toEqual([{ rule: "per-user", scope: "header", ratio: 1 }]);
  });

  it("counts per tenant and per rule: one tenant's values never spend another's budget", () => {
    const { admit } = bed(1);
    expect(admit("a", [headerRule], "tenantA")).toBe("p:{tenantA}2Ha");
    expect(admit("b", [headerRule], "tenantB")).toBe("p:{tenantB}2Hb");
    const other: LimiterRule = { ...headerRule, name: "per-user-2", ref: "per-user-2" };
    expect(admit("b", [other], "tenantA")).toBe("p:{tenantA}2Hb");
    expect(admit("c", [headerRule], "tenantA")).toBe("p:{tenantA}2H#~0");
  });

  it("leaves rules of other scopes alone (the subject itself, nothing held)", () => {
    const { subjects } = bed(1);
    const given = subject("u1");
    const plan = subjects.fold([keyRule], given);
    expect(plan.subject).toBe(given);
    expect(plan.reservations).toBeUndefined();
  });

  it("gives a value back when its request wrote nothing (refused), keeps it when one in flight with it was admitted", () => {
    const { subjects, admit } = bed(1);
    const refused = subjects.fold([headerRule], subject("u1"));
    subjects.settle(refused, decision([headerRule], false));
    expect(subjects.held("tenantA", "per-user")).toBe(0);
    // Two requests of one new value in flight: the first refused, the second admitted.
    const first = subjects.fold([headerRule], subject("u2"));
    const second = subjects.fold([headerRule], subject("u2"));
    subjects.settle(first, decision([headerRule], false));
    expect(subjects.held("tenantA", "per-user")).toBe(1);
    subjects.settle(second, decision([headerRule], true));
    expect(subjects.held("tenantA", "per-user")).toBe(1);
    expect(admit("u2")).toBe("p:{tenantA}2Hu2");
    // A failed decision (thrown) writes nothing either.
    const failed = subjects.fold([headerRule], subject("u3"));
    subjects.settle(failed, undefined);
    expect(admit("u3")).toBe("p:{tenantA}2H#~0");
  });

  it("a peek reserves nothing", () => {
    const { subjects, admit } = bed(1);
    expect(subjects.fold([headerRule], subject("u1"), false).subject.overflow).toBeUndefined();
    expect(subjects.held("tenantA", "per-user")).toBe(0);
    expect(admit("u2")).toBe("p:{tenantA}2Hu2");
  });

  it("a value is let go only once its key has expired: two lifetimes without a request", () => {
    const { admit, advance, subjects } = bed(1);
    const lifetime = subjectKeyLifetimeMs(headerRule);
    admit("u1");
    advance(lifetime); // u1 moves to the older generation: still held
    expect(admit("u2")).toBe("p:{tenantA}2H#~0");
    expect(admit("u1")).toBe("p:{tenantA}2Hu1"); // used again: held on
    advance(lifetime);
    expect(admit("u2")).toBe("p:{tenantA}2H#~0");
    advance(2 * lifetime); // no request of u1 for two lifetimes: its key is gone, its place free
    expect(admit("u2")).toBe("p:{tenantA}2Hu2");
    expect(subjects.held("tenantA", "per-user")).toBe(1);
  });

  it("budgets identifier and query rules too, not ip rules", () => {
    const { subjects } = bed(1);
    const identifier: LimiterRule = {
      ...headerRule,
      name: "per-id",
      ref: "per-id",
      scope: "identifier",
      attribute: undefined,
    };
    const ip: LimiterRule = { ...identifier, name: "per-ip", ref: "per-ip", scope: "ip" };
    const first = subjects.fold([identifier, ip], { tenantId: "t1", identifier: "a", ip: "192.0.2.1" });
    subjects.settle(first, decision([identifier, ip], true));
    const second = subjects.fold([identifier, ip], { tenantId: "t1", identifier: "b", ip: "192.0.2.2" });
    expect(counterKey("p:", identifier, second.subject)).toBe("p:{t1}2D#~0");
    expect(counterKey("p:", ip, second.subject)).toBe("p:{t1}2I192.0.2.2");
  });

  it("a key lives a window, two for sliding_window, a bucket's refill, or the penalty (plus TTL rounding)", () => {
    const lifetime = (rule: Partial<LimiterRule>) => subjectKeyLifetimeMs({ ...headerRule, ...rule });
    expect(lifetime({ algorithm: "fixed_window" })).toBe(61_600);
    expect(lifetime({ algorithm: "sliding_window" })).toBe(122_200);
    expect(lifetime({ algorithm: "token_bucket", limit: 10, burst: 30 })).toBe(182_800);
    expect(lifetime({ algorithm: "gcra", blockMs: 600_000 })).toBe(607_000);
  });

  it("refuses a budget below 1", () => {
    expect(() => new SubjectBudget({ budget: 0 })).toThrow("at least 1");
  });
});
