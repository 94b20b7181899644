import { describe, expect, it } from "vitest";
import { ruleSchema, type RuleInput } from "../rules/ruleSchema";
import { compileRule, mergeRules, rulesForRequest } from "./effectiveRules";

const compiled = (input: Partial<RuleInput> & { name: string }, override = false) =>
  compileRule(ruleSchema.parse({ limit: 10, windowMs: 60_000, ...input }), input.name, override);

describe("effective rules of a key", () => {
  const tenant = [
    compiled({ name: "per-key" }),
    compiled({ name: "per-ip", scope: "ip" }),
    compiled({ name: "ids", scope: "identifier" }),
  ];

  it("a same-named override replaces the tenant rule in place; other overrides are added", () => {
    const merged = mergeRules(tenant, [
      compiled({ name: "per-key", limit: 99 }, true),
      compiled({ name: "extra" }, true),
    ]);
    expect(merged.map((r) => [r.rule.name, r.rule.limit, r.override])).toEqual([
      ["per-key", 99, true],
      ["per-ip", 10, false],
      ["ids", 10, false],
      ["extra", 10, true],
    ]);
  });

  it("identifier rules never apply to requests", () => {
    expect(rulesForRequest(tenant, "GET", "/api/v1/echo").map((r) => r.name)).toEqual(["per-key", "per-ip"]);
  });

  it("filters by method and path glob", () => {
    const rules = [
      compiled({ name: "writes", match: { methods: ["POST"] } }),
      compiled({ name: "echo-one", match: { path: "/api/v1/echo/*" } }),
      compiled({ name: "all" }),
    ];
    expect(rulesForRequest(rules, "GET", "/api/v1/echo/a").map((r) => r.name)).toEqual(["echo-one", "all"]);
    expect(rulesForRequest(rules, "POST", "/api/v1/echo/a/b").map((r) => r.name)).toEqual(["writes", "all"]);
    expect(rulesForRequest(rules, "POST", "/api/v1/echo/").map((r) => r.name)).toEqual(["writes", "all"]);
  });

  it("a method-override's method matches too: a rule listing either method applies", () => {
    const rules = [
      compiled({ name: "writes", match: { methods: ["POST"] } }),
      compiled({ name: "reads", match: { methods: ["GET"] } }),
      compiled({ name: "deletes", match: { methods: ["DELETE"] } }),
    ];
    expect(rulesForRequest(rules, "GET", "/x", "POST").map((r) => r.name)).toEqual(["writes", "reads"]);
    expect(rulesForRequest(rules, "POST", "/x", "HEAD").map((r) => r.name)).toEqual(["writes", "reads"]);
    expect(rulesForRequest(rules, "GET", "/x").map((r) => r.name)).toEqual(["reads"]);
  });

  it("a rule listing GET applies to HEAD; one listing HEAD only does not apply to GET; OPTIONS only where listed or unlisted", () => {
    const rules = [
      compiled({ name: "reads", match: { methods: ["GET"] } }),
      compiled({ name: "heads", match: { methods: ["HEAD"] } }),
      compiled({ name: "preflight", match: { methods: ["OPTIONS"] } }),
    ];
    expect(rulesForRequest(rules, "HEAD", "/api/v1/echo").map((r) => r.name)).toEqual(["reads", "heads"]);
    expect(rulesForRequest(rules, "GET", "/api/v1/echo").map((r) => r.name)).toEqual(["reads"]);
    expect(rulesForRequest(rules, "OPTIONS", "/api/v1/echo").map((r) => r.name)).toEqual(["preflight"]);
  });
});
