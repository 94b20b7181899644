import { describe, expect, it } from "vitest";
import { counterKey } from "../../limiter/keys";
import { SubjectBudget } from "../../limiter/subjectBudget";
import { compileRule } from "../../policy/compiled/effectiveRules";
import { ruleSchema } from "../../policy/rules/ruleSchema";
import { rulesForCall } from "./descriptorRules";

const compiled = (name: string, ref: string, descriptor: { key: string; value?: string }[], extra = {}) =>
  compileRule(
    ruleSchema.parse({ name, scope: "descriptor", limit: 5, windowMs: 60_000, match: { descriptor }, ...extra }),
    ref,
    false,
  );

const perAddress = compiled("per-address", "r1", [{ key: "remote_address" }]);
const loginPerAddress = compiled("login", "r2", [{ key: "path", value: "/login" }, { key: "remote_address" }]);
const global = compiled("global", "r3", [{ key: "generic_key", value: "api" }]);
const pair = compiled("pair", "r4", [{ key: "a" }, { key: "b" }]);
const headerRule = compiled("by-header", "r5", [{ key: "x" }]);
const rules = [perAddress, loginPerAddress, global, pair, headerRule];
const prefix = "t:";

describe("descriptor rules: which apply and what they count", () => {
  it("a remote_address descriptor: counted per address", () => {
    const one = rulesForCall(rules, [{ entries: [["remote_address", "10.0.0.1"]], hits: 1 }]);
    const two = rulesForCall(rules, [{ entries: [["remote_address", "10.0.0.2"]], hits: 1 }]);
    expect(one.rules.map((r) => r.name)).toEqual(["per-address"]);
    const key = (call: typeof one) =>
      counterKey(prefix, call.rules[0]!, { tenantId: "T1", attributes: call.attributes });
    expect(key(one)).toBe("t:{T1}2E10.0.0.1");
    expect(key(two)).toBe("t:{T1}2E10.0.0.2");
  });

  it("keys must be exactly the rule's, in order; given values must be equal", () => {
    const call = rulesForCall(rules, [
      {
        entries: [
          ["path", "/login"],
          ["remote_address", "10.0.0.1"],
        ],
        hits: 1,
      },
      {
        entries: [
          ["path", "/other"],
          ["remote_address", "10.0.0.1"],
        ],
        hits: 1,
      },
      {
        entries: [
          ["remote_address", "10.0.0.1"],
          ["path", "/login"],
        ],
        hits: 1,
      },
      { entries: [["generic_key", "api"]], hits: 1 },
      { entries: [["generic_key", "API"]], hits: 1 },
    ]);
    expect(call.byDescriptor.map((ix) => ix.map((i) => call.rules[i]!.name))).toEqual([
      ["login"],
      [],
      [],
      ["global"],
      [],
    ]);
  });

  it("a rule applies to every descriptor it matches, each with its own subject slot", () => {
    const call = rulesForCall(rules, [
      { entries: [["remote_address", "10.0.0.1"]], hits: 1 },
      { entries: [["remote_address", "10.0.0.2"]], hits: 1 },
    ]);
    expect(call.rules.map((r) => r.descriptorSlot)).toEqual(["0:r1", "1:r1"]);
    expect(call.rules.map((r) => r.ref)).toEqual(["r1", "r1"]);
    expect(call.attributes).toEqual({ "0:r1": "10.0.0.1", "1:r1": "10.0.0.2" });
  });

  it("several counted entries are one subject (no two value lists share it); none: one counter", () => {
    const call = rulesForCall(rules, [
      {
        entries: [
          ["a", "x,y"],
          ["b", "z"],
        ],
        hits: 1,
      },
      {
        entries: [
          ["a", "x"],
          ["b", "y,z"],
        ],
        hits: 1,
      },
      { entries: [["generic_key", "api"]], hits: 1 },
    ]);
    expect(call.attributes["0:r4"]).not.toBe(call.attributes["1:r4"]);
    expect(call.attributes["2:r3"]).toBe("=");
  });

  it("an empty value is not counted (the rule skips that descriptor)", () => {
    expect(rulesForCall(rules, [{ entries: [["x", ""]], hits: 1 }]).rules).toEqual([]);
  });

  it("the call's units are the cost; cost-1 rules are reused across calls", () => {
    const a = rulesForCall(rules, [{ entries: [["x", "v"]], hits: 1 }]).rules[0]!;
    const b = rulesForCall(rules, [{ entries: [["x", "w"]], hits: 1 }]).rules[0]!;
    expect(a).toBe(b);
    expect(rulesForCall(rules, [{ entries: [["x", "v"]], hits: 7 }]).rules[0]!.cost).toBe(7);
  });

  it("rules of other scopes never apply", () => {
    const keyRule = compileRule(ruleSchema.parse({ name: "k", limit: 1, windowMs: 1000 }), "r9", false);
    expect(rulesForCall([keyRule], [{ entries: [["remote_address", "1"]], hits: 1 }]).rules).toEqual([]);
  });

  it("the subject budget folds each descriptor's value on its own (one rule, two descriptors of a call)", () => {
    const budget = new SubjectBudget({ budget: 1, clock: () => 0 });
    const call = rulesForCall(rules, [
      { entries: [["remote_address", "10.0.0.1"]], hits: 1 },
      { entries: [["remote_address", "10.0.0.2"]], hits: 1 },
    ]);
    const plan = budget.fold(call.rules, { tenantId: "T1", attributes: call.attributes });
    // The first value is held (its own counter); the second is past the budget of 1: an overflow counter.
    expect(Object.keys(plan.subject.overflow ?? {})).toEqual(["1:r1"]);
    expect(counterKey(prefix, call.rules[0]!, plan.subject)).toBe("t:{T1}2E10.0.0.1");
    expect(counterKey(prefix, call.rules[1]!, plan.subject)).toMatch(/^t:\{T1\}2E#~\d+$/);
  });
});
