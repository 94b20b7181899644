import { describe, expect, it } from "vitest";
import { ruleListSchema, ruleSchema, toLimiterRule } from "./ruleSchema";

const valid = { name: "per-key", limit: 100, windowMs: 60_000 };

function issues(input: unknown): [string, string][] {
  const parsed = ruleSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
}

describe("ruleSchema accepts", () => {
  it("a minimal rule and fills the contract's defaults (burst = limit)", () => {
    expect(ruleSchema.parse(valid)).toEqual({
      ...valid,
      scope: "key",
      algorithm: "sliding_window",
      burst: 100,
      cost: 1,
      match: {},
      blockMs: 0,
      failMode: "open",
      mode: "enforce",
    });
  });

  it.each([
    [
      "the contract's full example",
      {
        ...valid,
        scope: "key",
        algorithm: "sliding_window",
        burst: 100,
        cost: 1,
        match: { methods: ["GET", "POST"], path: "/api/v1/echo/*" },
        failMode: "open",
        mode: "enforce",
      },
    ],
    ["bounds of limit and window", { ...valid, limit: 1_000_000_000, windowMs: 31_622_400_000 }],
    ["minimum window and cost 0", { ...valid, windowMs: 1000, cost: 0 }],
    ["a ** glob", { ...valid, match: { path: "/api/v1/**" } }],
    ["the bare prefix", { ...valid, match: { path: "/api/v1" } }],
    ["a forwarded path (forward auth)", { ...valid, match: { path: "/orders/*" } }],
    ["a case-insensitive path", { ...valid, match: { path: "/api/v1/login", caseInsensitive: true } }],
    ["caseInsensitive false without a path", { ...valid, match: { caseInsensitive: false } }],
    ["a 64-character name", { ...valid, name: "a" + "b".repeat(63) }],
    ["a sliding_log at its cap of 10,000", { ...valid, algorithm: "sliding_log", limit: 10_000 }],
    ["a large limit for the other algorithms", { ...valid, algorithm: "sliding_window", limit: 1_000_000_000 }],
    ["a penalty at its bounds", { ...valid, blockMs: 31_622_400_000 }],
    ["no penalty", { ...valid, blockMs: 0 }],
    ["charged on 4xx only (count by response)", { ...valid, chargeOn: ["4xx"] }],
    ["every status class but 5xx (a refund)", { ...valid, chargeOn: ["1xx", "2xx", "3xx", "4xx"] }],
    ["a glob with 8 wildcards", { ...valid, match: { path: "/api/v1" + "/*/**".repeat(4) } }],
  ])("%s", (_, input) => {
    expect(issues(input)).toEqual([]);
  });
});

describe("ruleSchema rejects, naming the field", () => {
  it.each([
    ["missing name", { limit: 1, windowMs: 1000 }, "name", "name is required"],
    [
      "upper-case name",
      { ...valid, name: "PerKey" },
      "name",
      "name must be 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit",
    ],
    [
      "name starting with -",
      { ...valid, name: "-x" },
      "name",
      "name must be 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit",
    ],
    [
      "65-character name",
      { ...valid, name: "a".repeat(65) },
      "name",
      "name must be 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit",
    ],
    [
      "unknown scope",
      { ...valid, scope: "user" },
      "scope",
      "scope must be one of key, tenant, ip, identifier, header, query, descriptor",
    ],
    [
      "unknown algorithm",
      { ...valid, algorithm: "leaky" },
      "algorithm",
      "algorithm must be one of fixed_window, sliding_log, sliding_window, token_bucket, gcra, concurrency",
    ],
    ["limit 0", { ...valid, limit: 0 }, "limit", "limit must be at least 1"],
    ["fractional limit", { ...valid, limit: 1.5 }, "limit", "limit must be a whole number"],
    ["limit as a string", { ...valid, limit: "100" }, "limit", "limit must be a number"],
    ["limit too large", { ...valid, limit: 1_000_000_001 }, "limit", "limit must be at most 1,000,000,000"],
    ["window under 1 s", { ...valid, windowMs: 999 }, "windowMs", "windowMs must be at least 1000 (1 second)"],
    [
      "window over 366 days",
      { ...valid, windowMs: 31_622_400_001 },
      "windowMs",
      "windowMs must be at most 31622400000 (366 days)",
    ],
    ["burst 0", { ...valid, burst: 0 }, "burst", "burst must be at least 1"],
    ["negative cost", { ...valid, cost: -1 }, "cost", "cost must be at least 0"],
    [
      "a relative path",
      { ...valid, match: { path: "api/v1/echo" } },
      "match.path",
      "path must start with / and contain no spaces, ? or #",
    ],
    [
      "a space in the path",
      { ...valid, match: { path: "/api/v1/a b" } },
      "match.path",
      "path must start with / and contain no spaces, ? or #",
    ],
    [
      "partial-segment wildcard",
      { ...valid, match: { path: "/api/v1/ec*" } },
      "match.path",
      "path wildcards must be a whole segment: /* or /**",
    ],
    [
      "NUL in the path (Postgres refuses it in text)",
      { ...valid, match: { path: "/api/v1/a\u0000" } },
      "match.path",
      "path must not contain control characters (U+0000 at position 9)",
    ],
    [
      "an unpaired surrogate in the path",
      { ...valid, match: { path: "/api/v1/\ud800" } },
      "match.path",
      "path must not contain an unpaired surrogate (U+D800 at position 8); send well-formed Unicode",
    ],
    [
      "unknown method",
      { ...valid, match: { methods: ["FETCH"] } },
      "match.methods.0",
      "methods must be among GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
    ],
    [
      "caseInsensitive without a path",
      { ...valid, match: { caseInsensitive: true } },
      "match.caseInsensitive",
      "caseInsensitive needs a path to compare (without one the rule applies to every path)",
    ],
    [
      "caseInsensitive not a boolean",
      { ...valid, match: { path: "/x", caseInsensitive: "yes" } },
      "match.caseInsensitive",
      "caseInsensitive must be true or false",
    ],
    ["empty methods", { ...valid, match: { methods: [] } }, "match.methods", "methods must list at least one method"],
    ["negative penalty", { ...valid, blockMs: -1 }, "blockMs", "blockMs must be at least 0 (0: no penalty)"],
    ["fractional penalty", { ...valid, blockMs: 1.5 }, "blockMs", "blockMs must be a whole number of milliseconds"],
    ["penalty as a string", { ...valid, blockMs: "60000" }, "blockMs", "blockMs must be a number"],
    [
      "penalty over 366 days",
      { ...valid, blockMs: 31_622_400_001 },
      "blockMs",
      "blockMs must be at most 31622400000 (366 days)",
    ],
    [
      "an empty chargeOn (leave it out to charge at admission)",
      { ...valid, chargeOn: [] },
      "chargeOn",
      "chargeOn must list at least one status class (leave it out to charge at admission)",
    ],
    [
      "a status code instead of a class",
      { ...valid, chargeOn: ["401"] },
      "chargeOn.0",
      "chargeOn must list status classes among 1xx, 2xx, 3xx, 4xx, 5xx",
    ],
    [
      "a class listed twice",
      { ...valid, chargeOn: ["4xx", "4xx"] },
      "chargeOn",
      "chargeOn must not list a status class twice",
    ],
    ["chargeOn as a string", { ...valid, chargeOn: "4xx" }, "chargeOn", "chargeOn must be a list of status classes"],
    [
      "chargeOn on a concurrency rule",
      { ...valid, algorithm: "concurrency", chargeOn: ["4xx"] },
      "chargeOn",
      "chargeOn is not available for concurrency (a slot is held while the request is in flight, whatever its answer)",
    ],
    [
      "chargeOn on an identifier rule",
      { ...valid, scope: "identifier", chargeOn: ["4xx"] },
      "chargeOn",
      "chargeOn cannot be set on an identifier rule: POST /api/v1/check charges it, and its answer is not the caller's response",
    ],
    ["unknown failMode", { ...valid, failMode: "retry" }, "failMode", "failMode must be one of open, closed, local"],
    ["unknown mode", { ...valid, mode: "dry-run" }, "mode", "mode must be one of enforce, shadow"],
    [
      "a sliding_log limit over its cap",
      { ...valid, algorithm: "sliding_log", limit: 10_001 },
      "limit",
      "limit must be at most 10,000 for sliding_log (every decision reads the whole log); use sliding_window for larger limits",
    ],
    [
      "the review's sliding_log of 1e9",
      { ...valid, algorithm: "sliding_log", limit: 1_000_000_000, windowMs: 86_400_000 },
      "limit",
      "limit must be at most 10,000 for sliding_log (every decision reads the whole log); use sliding_window for larger limits",
    ],
    [
      "a glob with more than 8 wildcards",
      { ...valid, match: { path: "/api/v1" + "/**/a".repeat(9) } },
      "match.path",
      "path may hold at most 8 wildcards (* or **)",
    ],
  ])("%s", (_, input, path, message) => {
    expect(issues(input)).toContainEqual([path, message]);
  });

  it("leaves chargeOn unset by default: charged at admission", () => {
    expect(ruleSchema.parse(valid)).not.toHaveProperty("chargeOn");
    expect(toLimiterRule(ruleSchema.parse(valid))).not.toHaveProperty("chargeOn");
    expect(toLimiterRule(ruleSchema.parse({ ...valid, chargeOn: ["5xx", "4xx"] })).chargeOn).toEqual(["4xx", "5xx"]);
  });

  it("unknown fields (a typo must not silently mean a default)", () => {
    expect(
      issues({ ...valid, windowMS: 1000 })
        .map(([, message]) => message)
        .join(),
    ).toMatch(/windowMS/);
  });

  it("duplicate names within one owner's list", () => {
    const parsed = ruleListSchema.safeParse([valid, valid]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: [1, "name"], message: 'duplicate rule name "per-key"' });
  });
});

describe("ruleSchema: concurrency", () => {
  const concurrency = { ...valid, algorithm: "concurrency", limit: 2, windowMs: 30_000 };

  it("accepts a concurrency rule of scope key, tenant or ip with cost 1, open or closed", () => {
    for (const scope of ["key", "tenant", "ip"]) expect(issues({ ...concurrency, scope })).toEqual([]);
    expect(issues({ ...concurrency, failMode: "closed", mode: "shadow" })).toEqual([]);
  });

  it.each([
    ["cost other than 1", { cost: 2 }, "cost", "cost must be 1 for concurrency"],
    ["cost 0", { cost: 0 }, "cost", "cost must be 1 for concurrency"],
    ["a penalty", { blockMs: 1000 }, "blockMs", "blockMs must be 0 for concurrency"],
    ["the local fail mode", { failMode: "local" }, "failMode", "failMode local is not available for concurrency"],
    ["the identifier scope", { scope: "identifier" }, "scope", "scope identifier is not available for concurrency"],
  ])("refuses %s, naming the field", (_, change, field, message) => {
    const found = issues({ ...concurrency, ...change });
    expect(found).toHaveLength(1);
    expect(found[0]![0]).toBe(field);
    expect(found[0]![1]).toContain(message);
  });
});

describe("ruleSchema: calendar periods (period, timeZone)", () => {
  const calendar = { name: "monthly", algorithm: "fixed_window", limit: 1000, period: "month" };

  it("accepts a fixed_window rule per period without windowMs, time zone UTC by default", () => {
    const rule = ruleSchema.parse(calendar);
    expect(rule).toMatchObject({ period: "month", timeZone: "UTC" });
    expect(rule).not.toHaveProperty("windowMs");
    expect(ruleSchema.parse({ ...calendar, period: "week", timeZone: "Europe/Berlin" }).timeZone).toBe("Europe/Berlin");
    // Parsing its own output again (a GET sent back with PUT, an audit revert) changes nothing.
    expect(ruleSchema.parse(rule)).toEqual(rule);
  });

  it("gives the limiter the period and its longest length as the window", () => {
    const limiter = toLimiterRule(ruleSchema.parse({ ...calendar, period: "day", timeZone: "America/New_York" }));
    expect(limiter.period).toEqual({ unit: "day", timeZone: "America/New_York" });
    expect(limiter.windowMs).toBe(25 * 3_600_000);
    expect(toLimiterRule(ruleSchema.parse(valid))).not.toHaveProperty("period");
  });

  it.each([
    [{ ...calendar, timeZone: "Mars/Olympus" }, "timeZone", "IANA time zone"],
    [{ ...calendar, algorithm: "sliding_window" }, "period", "only for fixed_window"],
    [{ ...calendar, windowMs: 60_000 }, "windowMs", "left out when period is set"],
    [{ ...valid, timeZone: "UTC" }, "timeZone", "goes with period"],
    [{ ...calendar, period: "year" }, "period", "period must be one of day, week, month"],
    [{ name: "x", limit: 1, algorithm: "fixed_window" }, "windowMs", "windowMs is required"],
    [{ ...calendar, scope: "header", scopeKey: "x-team", period: "day" }, "period", "not available for scope header"],
  ])("refuses %j naming %s", (input, field, message) => {
    const found = issues(input);
    expect(found.map(([path]) => path)).toContain(field);
    expect(found.find(([path]) => path === field)![1]).toContain(message);
  });
});
