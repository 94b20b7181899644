/** A key's billing day on its compiled rules: only month rules of scope key follow it. */
import { describe, expect, it } from "vitest";
import { ruleSchema } from "../rules/ruleSchema";
import { anchorRules } from "./billingAnchor";
import { compileRule } from "./effectiveRules";

const compiled = (fields: Record<string, unknown>) =>
  compileRule(ruleSchema.parse({ name: "r", algorithm: "fixed_window", limit: 10, ...fields }), "r", false);

describe("anchorRules", () => {
  const monthKey = compiled({ scope: "key", period: "month", timeZone: "Europe/Berlin" });
  const monthTenant = compiled({ scope: "tenant", period: "month" });
  const dayKey = compiled({ scope: "key", period: "day" });
  const windowKey = compiled({ scope: "key", windowMs: 60_000 });

  it("anchors the month rules of scope key at the billing day, and nothing else", () => {
    const out = anchorRules([monthKey, monthTenant, dayKey, windowKey], 15);
    expect(out[0]!.limiter.period).toEqual({ unit: "month", timeZone: "Europe/Berlin", anchorDay: 15 });
    expect(out[0]!.rule).toBe(monthKey.rule);
    expect(out.slice(1)).toEqual([monthTenant, dayKey, windowKey]);
    expect(out[1]).toBe(monthTenant);
    // The rule it came from is left as it was (shared by every key of the tenant).
    expect(monthKey.limiter.period).toEqual({ unit: "month", timeZone: "Europe/Berlin" });
  });

  it("no billing day, the 1st, or no month rule: the same array", () => {
    const rules = [monthKey, dayKey];
    expect(anchorRules(rules, null)).toBe(rules);
    expect(anchorRules(rules, 1)).toBe(rules);
    expect(anchorRules([dayKey, windowKey], 20)).toEqual([dayKey, windowKey]);
  });
});
