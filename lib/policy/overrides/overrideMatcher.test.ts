import { describe, expect, it } from "vitest";
import type { LimiterRule } from "../../limiter/types";
import { compileOverrides } from "./overrideMatcher";
import { identifierOverrideListSchema } from "./overrideSchema";

const base: LimiterRule = {
  name: "per-caller",
  ref: "7",
  scope: "identifier",
  algorithm: "token_bucket",
  limit: 10,
  windowMs: 60_000,
  burst: 10,
  cost: 1,
  blockMs: 0,
  failMode: "open",
  mode: "enforce",
};

const matcher = compileOverrides(base, [
  { identifier: "enterprise:*", limit: 1000 },
  { identifier: "enterprise:big*", limit: 5000, windowMs: 1_000 },
  { identifier: "enterprise:acme", limit: 7, burst: 20 },
  { identifier: "e*", limit: 50 },
]);

describe("identifier overrides: exact beats the longest prefix beats the rule", () => {
  it.each([
    ["an exact identifier takes its own limit", "enterprise:acme", 7],
    ["the longest matching prefix wins over a shorter one", "enterprise:bigco", 5000],
    ["a prefix matches the identifier equal to it", "enterprise:big", 5000],
    ["a shorter prefix applies when the longer does not match", "enterprise:small", 1000],
    ["the shortest prefix still beats the rule", "edu", 50],
    ["no match: the rule itself", "acme", 10],
    ["a prefix longer than the identifier cannot match", "enterp", 50],
  ])("%s", (_, identifier, limit) => {
    expect(matcher.ruleFor(identifier).limit).toBe(limit);
  });

  it("an override keeps the rule's counter (its ref) and fills window and burst", () => {
    const acme = matcher.ruleFor("enterprise:acme");
    expect(acme).toMatchObject({
      ref: "7",
      name: "per-caller",
      windowMs: 60_000,
      burst: 20,
      algorithm: "token_bucket",
    });
    expect(matcher.ruleFor("enterprise:x")).toMatchObject({ limit: 1000, burst: 1000, windowMs: 60_000 });
    expect(matcher.ruleFor("enterprise:bigx").windowMs).toBe(1_000);
    expect(matcher.ruleFor("nobody")).toBe(base);
  });

  it("answers the same rule object each time (the limiter caches its spec per object)", () => {
    expect(matcher.ruleFor("enterprise:q")).toBe(matcher.ruleFor("enterprise:r"));
  });
});

describe("identifierOverrideListSchema", () => {
  const issues = (input: unknown) => {
    const parsed = identifierOverrideListSchema.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
  };

  it("accepts exact and prefix identifiers with optional window and burst", () => {
    expect(
      issues([
        { identifier: "acme", limit: 5 },
        { identifier: "enterprise:*", limit: 1000, windowMs: 60_000, burst: 2000 },
      ]),
    ).toEqual([]);
  });

  it.each([
    [
      "a bare *",
      [{ identifier: "*", limit: 1 }],
      "0.identifier",
      "identifier * alone would match everyone: change the rule's own limit instead",
    ],
    [
      "a * inside",
      [{ identifier: "a*b", limit: 1 }],
      "0.identifier",
      "identifier may hold * only at its end (a prefix: enterprise:*)",
    ],
    ["an empty identifier", [{ identifier: "", limit: 1 }], "0.identifier", "identifier must not be empty"],
    [
      "a 257-character identifier",
      [{ identifier: "x".repeat(257), limit: 1 }],
      "0.identifier",
      "identifier must be at most 256 characters",
    ],
    [
      "a control character",
      [{ identifier: "a\u0000", limit: 1 }],
      "0.identifier",
      "identifier must not contain control characters (U+0000 at position 1)",
    ],
    ["limit 0", [{ identifier: "a", limit: 0 }], "0.limit", "limit must be at least 1"],
    [
      "a window under 1 s",
      [{ identifier: "a", limit: 1, windowMs: 999 }],
      "0.windowMs",
      "windowMs must be at least 1000 (1 second)",
    ],
    [
      "a duplicate identifier",
      [
        { identifier: "a", limit: 1 },
        { identifier: "a", limit: 2 },
      ],
      "1.identifier",
      'duplicate identifier "a"',
    ],
    ["an unknown field", [{ identifier: "a", limit: 1, cost: 2 }], "0", 'Unrecognized key: "cost"'],
  ])("refuses %s", (_, input, path, message) => {
    expect(issues(input)).toContainEqual([path, message]);
  });

  it("refuses more than 1,000 overrides", () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ identifier: `id-${i}`, limit: 1 }));
    expect(issues(many)).toContainEqual(["", "at most 1,000 overrides per rule"]);
  });
});
