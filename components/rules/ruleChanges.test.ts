import { describe, expect, it } from "vitest";
import { describeRuleChanges, type ComparableRule } from "./ruleChanges";

const rule = (over: Partial<ComparableRule> = {}): ComparableRule => ({
  name: "per-key",
  limit: 120,
  windowMs: 60_000,
  algorithm: "sliding_window",
  ...over,
});

describe("describeRuleChanges", () => {
  it("a lower limit in the same window reads as old → new per window", () => {
    expect(describeRuleChanges([rule()], [rule({ limit: 60 })])).toEqual(["per-key: 120 → 60 per min"]);
  });

  it("a path compared in any case reads as such", () => {
    const login = { path: "/api/v1/login" };
    expect(
      describeRuleChanges([rule({ match: login })], [rule({ match: { ...login, caseInsensitive: true } })]),
    ).toEqual(["per-key: applies to /api/v1/login → /api/v1/login (any case)"]);
  });

  it("big numbers get separators; a new window names both rates", () => {
    expect(describeRuleChanges([rule()], [rule({ limit: 1200 })])).toEqual(["per-key: 120 → 1,200 per min"]);
    expect(describeRuleChanges([rule()], [rule({ windowMs: 30_000 })])).toEqual([
      "per-key: 120 per min → 120 per 30 s",
    ]);
  });

  it("added, removed and unchanged rules; mode and algorithm changes in words", () => {
    const before = [rule(), rule({ name: "trial", limit: 5 }), rule({ name: "same" })];
    const after = [
      rule({ mode: "shadow", algorithm: "token_bucket" }),
      rule({ name: "burst", limit: 10, windowMs: 1_000 }),
      rule({ name: "same" }),
    ];
    expect(describeRuleChanges(before, after)).toEqual([
      "per-key: algorithm sliding window → token bucket, mode enforce → shadow",
      "added burst: 10 per s",
      "removed trial",
    ]);
  });

  it("a stored window rule's burst (= limit) is not a change of its own", () => {
    expect(describeRuleChanges([rule({ burst: 120 })], [rule({ limit: 60, burst: 60 })])).toEqual([
      "per-key: 120 → 60 per min",
    ]);
    expect(
      describeRuleChanges([rule({ algorithm: "gcra", burst: 5 })], [rule({ algorithm: "gcra", burst: 9 })]),
    ).toEqual(["per-key: burst 5 → 9"]);
  });

  it("count by response set or lifted reads as the classes charged, or at admission", () => {
    expect(describeRuleChanges([rule()], [rule({ chargeOn: ["4xx"] })])).toEqual([
      "per-key: charged at admission → 4xx responses",
    ]);
    expect(describeRuleChanges([rule({ chargeOn: ["1xx", "2xx"] })], [rule()])).toEqual([
      "per-key: charged 1xx, 2xx responses → at admission",
    ]);
  });

  it("a penalty set, changed or lifted reads as a duration or none (a stored 0 is none)", () => {
    expect(describeRuleChanges([rule({ blockMs: 0 })], [rule({ blockMs: 600_000 })])).toEqual([
      "per-key: penalty none → 10 min",
    ]);
    expect(describeRuleChanges([rule({ blockMs: 600_000 })], [rule()])).toEqual(["per-key: penalty 10 min → none"]);
    expect(describeRuleChanges([rule({ blockMs: 0 })], [rule()])).toEqual([]);
  });

  it("nothing changed: nothing to say", () => {
    expect(describeRuleChanges([rule()], [rule()])).toEqual([]);
  });
});
