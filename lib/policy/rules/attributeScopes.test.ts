import { describe, expect, it } from "vitest";
import { keyRulesSchema } from "../../control/admin/schemas";
import { ruleSchema, toLimiterRule } from "./ruleSchema";
import { fromColumns, toColumns } from "./storedRule";

const base = { name: "per-user", limit: 10, windowMs: 60_000 };

function issues(input: unknown): [string, string][] {
  const parsed = ruleSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
}

describe("header and query scopes in the rule schema", () => {
  it("a header rule: the name is lower-cased, onMissing defaults to skip", () => {
    expect(ruleSchema.parse({ ...base, scope: "header", scopeKey: "X-User-Id" })).toMatchObject({
      scope: "header",
      scopeKey: "x-user-id",
      onMissing: "skip",
    });
  });

  it("a query rule keeps the parameter's case and takes onMissing refuse", () => {
    expect(ruleSchema.parse({ ...base, scope: "query", scopeKey: "userId", onMissing: "refuse" })).toMatchObject({
      scope: "query",
      scopeKey: "userId",
      onMissing: "refuse",
    });
  });

  it("other scopes carry neither field (the stored shape does not change)", () => {
    const parsed = ruleSchema.parse(base);
    expect("scopeKey" in parsed).toBe(false);
    expect("onMissing" in parsed).toBe(false);
  });

  it.each([
    [
      "header without scopeKey",
      { ...base, scope: "header" },
      "scopeKey",
      "scopeKey is required for scope header: a header name",
    ],
    [
      "query with an empty scopeKey",
      { ...base, scope: "query", scopeKey: "" },
      "scopeKey",
      "scopeKey is required for scope query: a query parameter name",
    ],
    [
      "a header name with a space",
      { ...base, scope: "header", scopeKey: "x user" },
      "scopeKey",
      "scopeKey must be a header name: 1-64 letters, digits and !#$%&'*+.^_`|~-",
    ],
    [
      "a credential header",
      { ...base, scope: "header", scopeKey: "Authorization" },
      "scopeKey",
      "scopeKey may not be authorization: it carries credentials (use scope key)",
    ],
    [
      "x-api-key",
      { ...base, scope: "header", scopeKey: "x-api-key" },
      "scopeKey",
      "scopeKey may not be x-api-key: it carries credentials (use scope key)",
    ],
    [
      "a query name with =",
      { ...base, scope: "query", scopeKey: "a=b" },
      "scopeKey",
      "scopeKey must be a query parameter name: 1-64 characters, no spaces, &, =, #, + or %",
    ],
    [
      "a 65-character scopeKey",
      { ...base, scope: "header", scopeKey: "x".repeat(65) },
      "scopeKey",
      "scopeKey must be at most 64 characters",
    ],
    [
      "scopeKey on a key rule",
      { ...base, scope: "key", scopeKey: "x-user-id" },
      "scopeKey",
      "scopeKey is only for scope header or query, not key",
    ],
    [
      "onMissing on an ip rule",
      { ...base, scope: "ip", onMissing: "skip" },
      "onMissing",
      "onMissing is only for scope header or query, not ip",
    ],
    [
      "an unknown onMissing",
      { ...base, scope: "header", scopeKey: "x-user-id", onMissing: "ignore" },
      "onMissing",
      "onMissing must be one of skip, refuse",
    ],
    [
      "a header rule's window over a day (each value's key would live that long)",
      { ...base, scope: "header", scopeKey: "x-user-id", windowMs: 86_400_001 },
      "windowMs",
      "windowMs must be at most 86400000 (1 day) for scope header: each distinct value keeps its own Redis key that long; count longer periods with scope key, tenant or identifier",
    ],
    [
      "a query rule's penalty over a day",
      { ...base, scope: "query", scopeKey: "u", blockMs: 2 * 86_400_000 },
      "blockMs",
      "blockMs must be at most 86400000 (1 day) for scope query: each distinct value keeps its own Redis key that long; count longer periods with scope key, tenant or identifier",
    ],
    [
      "a header token bucket that refills in over a day",
      {
        ...base,
        scope: "header",
        scopeKey: "x-user-id",
        algorithm: "token_bucket",
        limit: 10,
        burst: 100,
        windowMs: 3 * 3_600_000,
      },
      "burst",
      "burst x windowMs / limit (the time an emptied bucket takes to refill) must be at most 86400000 (1 day) for scope header: each distinct value keeps its own Redis key that long; count longer periods with scope key, tenant or identifier",
    ],
  ])("refuses %s", (_, input, path, message) => {
    expect(issues(input)).toContainEqual([path, message]);
  });

  it("a day is the longest window of a header or query rule; other scopes keep theirs", () => {
    const day = { ...base, scope: "header", scopeKey: "x-user-id", windowMs: 86_400_000, blockMs: 86_400_000 };
    expect(issues(day)).toEqual([]);
    expect(issues({ ...base, scope: "identifier", windowMs: 30 * 86_400_000 })).toEqual([]);
  });

  it("key override rules may use header and query scopes", () => {
    expect(
      keyRulesSchema.safeParse([
        { ...base, scope: "header", scopeKey: "x-user-id" },
        { ...base, name: "q", scope: "query", scopeKey: "u" },
      ]).success,
    ).toBe(true);
  });

  it("round-trips through the database columns and gives the limiter its attribute", () => {
    const rule = ruleSchema.parse({ ...base, scope: "header", scopeKey: "X-User-Id", onMissing: "refuse" });
    expect(fromColumns(toColumns(rule))).toEqual(rule);
    expect(toLimiterRule(rule, "7").attribute).toEqual({
      source: "header",
      name: "x-user-id",
      onMissing: "refuse",
      id: "header:x-user-id",
    });
    expect(toLimiterRule(ruleSchema.parse(base), "8").attribute).toBeUndefined();
  });
});
