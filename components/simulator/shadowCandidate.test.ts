import { describe, expect, it } from "vitest";
import { ruleSchema, type RuleInput } from "@/lib/policy/rules/ruleSchema";
import { withShadowCandidate } from "./shadowCandidate";

const stored = (input: RuleInput) => ruleSchema.parse(input);

describe("withShadowCandidate", () => {
  it("keeps the current rules and adds a changed rule as shadow under a free name", () => {
    const current = [stored({ name: "per-key", limit: 100, windowMs: 60_000 })];
    const plan = withShadowCandidate(current, [{ name: "per-key", limit: 5, windowMs: 60_000 }]);
    expect(plan.added).toEqual(["per-key-candidate"]);
    expect(plan.rules).toEqual([current[0], { name: "per-key-candidate", limit: 5, windowMs: 60_000, mode: "shadow" }]);
    expect(() => ruleSchema.array().parse(plan.rules)).not.toThrow();
  });

  it("leaves out candidate rules equal to the current rule of their name, defaults filled or not", () => {
    const current = [
      stored({ name: "per-key", limit: 100, windowMs: 60_000 }),
      stored({ name: "per-ip", scope: "ip", limit: 10, windowMs: 1_000 }),
    ];
    const plan = withShadowCandidate(current, [
      { name: "per-key", limit: 100, windowMs: 60_000, cost: 1, burst: 100 },
      { name: "per-ip", scope: "ip", limit: 10, windowMs: 1_000, mode: "shadow" },
    ]);
    expect(plan.added).toEqual([]);
    expect(plan.rules).toEqual(current);
  });

  it("adds a new name as it is, and renames past names already taken", () => {
    const current = [
      stored({ name: "a", limit: 1, windowMs: 1_000 }),
      stored({ name: "a-candidate", limit: 2, windowMs: 1_000 }),
    ];
    const plan = withShadowCandidate(current, [
      { name: "a", limit: 3, windowMs: 1_000 },
      { name: "b", limit: 4, windowMs: 1_000, mode: "enforce" },
    ]);
    expect(plan.added).toEqual(["a-candidate-2", "b"]);
    expect(plan.rules.slice(2)).toEqual([
      { name: "a-candidate-2", limit: 3, windowMs: 1_000, mode: "shadow" },
      { name: "b", limit: 4, windowMs: 1_000, mode: "shadow" },
    ]);
  });

  it("cuts a long name so the suffixed name stays within the schema's 64 characters", () => {
    const long = "r".repeat(64);
    const plan = withShadowCandidate(
      [stored({ name: long, limit: 1, windowMs: 1_000 })],
      [{ name: long, limit: 2, windowMs: 1_000 }],
    );
    expect(plan.added[0]).toBe(`${"r".repeat(54)}-candidate`);
    expect(() => ruleSchema.array().parse(plan.rules)).not.toThrow();
  });
});
