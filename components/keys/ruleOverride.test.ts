import { describe, expect, it } from "vitest";
import { keyRulesSchema } from "@/lib/control/admin/schemas";
import { ruleSchema, type Rule } from "@/lib/policy/rules/ruleSchema";
import type { RecentDecision } from "./keyTypes";
import { overrideDraft, refusalShift, stripSource, withOverride } from "./ruleOverride";

const rule = (input: Record<string, unknown>): Rule => ruleSchema.parse(input);
const perKey = {
  ...rule({ name: "per-key", algorithm: "sliding_window", limit: 120, windowMs: 60_000 }),
  source: "tenant" as const,
};
const burst = {
  ...rule({ name: "burst", algorithm: "token_bucket", limit: 10, windowMs: 1_000, burst: 20 }),
  source: "tenant" as const,
};

describe("override this rule (issue 31, point 2)", () => {
  it("starts from the effective rule's limit and window", () => {
    expect(overrideDraft(perKey)).toEqual({ limit: "120", window: "1 min" });
  });

  it("adds an override of the same name with only limit and window changed, valid for a key", () => {
    const other = rule({ name: "extra", limit: 5, windowMs: 1_000 });
    const list = withOverride([other], burst, 100, 1_000);
    expect(list).toEqual([other, { ...stripSource(burst), limit: 100, windowMs: 1_000 }]);
    expect(list[1]).not.toHaveProperty("source");
    expect(list[1]).toMatchObject({ name: "burst", algorithm: "token_bucket", burst: 20, scope: "key" });
    expect(keyRulesSchema.safeParse(list).success).toBe(true);
  });

  it("replaces an override of that name in place", () => {
    const old = rule({ name: "per-key", limit: 500, windowMs: 60_000 });
    const list = withOverride([old], { ...old, source: "override" }, 2_000, 60_000);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: "per-key", limit: 2_000 });
  });
});

describe("refusalShift: when the 429s moved to the next rule", () => {
  const d = (atMs: number, refusedBy: string | null): RecentDecision => ({
    atMs,
    method: "GET",
    path: "/",
    allowed: refusedBy === null,
    unavailable: false,
    shadowRefused: [],
    refusedBy,
    remaining: null,
  });
  const overridden = [{ ...perKey, limit: 2_000, source: "override" as const }, burst];

  it("names the overridden rule, the rule refusing now and since when", () => {
    const decisions = [d(9, "burst"), d(8, null), d(7, "burst"), d(5, "per-key"), d(4, "per-key")];
    expect(refusalShift(decisions, overridden)).toEqual({ from: "per-key", to: "burst", sinceMs: 7 });
  });

  it("says nothing while one rule refuses, or when the earlier rule is not overridden", () => {
    expect(refusalShift([d(9, "burst"), d(7, "burst")], overridden)).toBeNull();
    expect(refusalShift([d(9, "burst"), d(5, "per-key")], [perKey, burst])).toBeNull();
    expect(refusalShift([d(9, null)], overridden)).toBeNull();
  });
});
