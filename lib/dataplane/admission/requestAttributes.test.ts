import { describe, expect, it } from "vitest";
import { counterKey } from "../../limiter/keys";
import type { LimiterRule } from "../../limiter/types";
import { ruleSchema, toLimiterRule } from "../../policy/rules/ruleSchema";
import { boundedAttributeValue, MAX_ATTRIBUTE_BYTES, resolveAttributes } from "./requestAttributes";

const rule = (input: Record<string, unknown>, ref: string): LimiterRule =>
  toLimiterRule(ruleSchema.parse({ limit: 5, windowMs: 60_000, ...input }), ref);
const perUser = rule({ name: "per-user", scope: "header", scopeKey: "X-User-Id" }, "1");
const perUserStrict = rule(
  { name: "per-user-strict", scope: "header", scopeKey: "x-user-id", onMissing: "refuse" },
  "2",
);
const perQuery = rule({ name: "per-q", scope: "query", scopeKey: "user", onMissing: "refuse" }, "3");
const perKey = rule({ name: "per-key" }, "4");
const shadowStrict = rule(
  { name: "shadow", scope: "header", scopeKey: "x-org", onMissing: "refuse", mode: "shadow" },
  "5",
);

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] });

describe("resolveAttributes", () => {
  it("rules without attributes pass through untouched (the same array, no attributes)", () => {
    const rules = [perKey];
    expect(resolveAttributes(rules, { headers: headers({}), query: "" })).toEqual({ ok: true, rules });
  });

  it("reads a header (lower-case name) and a query parameter (decoded once)", () => {
    const resolved = resolveAttributes([perKey, perUser, perQuery], {
      headers: headers({ "x-user-id": " alice " }),
      query: "?user=b%C3%B6b+x&other=second",
    });
    expect(resolved).toEqual({
      ok: true,
      rules: [perKey, perUser, perQuery],
      attributes: { "header:x-user-id": "alice", "query:user": "böb x" },
    });
  });

  it("a missing attribute of a skip rule leaves that rule out, keeping the others in order", () => {
    expect(resolveAttributes([perUser, perKey], { headers: headers({}), query: "" })).toEqual({
      ok: true,
      rules: [perKey],
    });
  });

  it("an empty (blank) value counts as missing", () => {
    expect(resolveAttributes([perUser], { headers: headers({ "x-user-id": "  " }) })).toEqual({ ok: true, rules: [] });
  });

  it("a missing attribute of a refuse rule names the rule and the attribute", () => {
    const resolved = resolveAttributes([perKey, perQuery], { headers: headers({}), query: "?other=1" });
    expect(resolved).toEqual({ ok: false, rule: perQuery, attribute: perQuery.attribute, problem: "missing" });
  });

  it("a header sent on several lines, or a query parameter given several times, with different values is refused (even with onMissing skip)", () => {
    const lines = (values: Record<string, string[]>) => ({
      get: (name: string) => values[name]?.join(", "),
      all: (name: string) => values[name],
    });
    expect(resolveAttributes([perKey, perUser], { headers: lines({ "x-user-id": ["alice", "r4nd0m"] }) })).toEqual({
      ok: false,
      rule: perUser,
      attribute: perUser.attribute,
      problem: "repeated",
    });
    expect(resolveAttributes([perQuery], { headers: headers({}), query: "?user=a&user=b" })).toMatchObject({
      ok: false,
      problem: "repeated",
    });
    // One line with a comma is one value, as frameworks read it; the same value twice is no ambiguity.
    expect(resolveAttributes([perUser], { headers: lines({ "x-user-id": ["alice, bob"] }) })).toMatchObject({
      ok: true,
      attributes: { "header:x-user-id": "alice, bob" },
    });
    expect(resolveAttributes([perQuery], { headers: headers({}), query: "?user=a&user=a" })).toMatchObject({
      ok: true,
      attributes: { "query:user": "a" },
    });
    // A shadow rule never refuses: a repeated attribute only skips it.
    const shadow = rule({ name: "shadow-user", scope: "header", scopeKey: "x-user-id", mode: "shadow" }, "6");
    expect(resolveAttributes([shadow, perKey], { headers: lines({ "x-user-id": ["a", "b"] }) })).toEqual({
      ok: true,
      rules: [perKey],
    });
  });

  it("a shadow rule never refuses: a missing attribute only skips it", () => {
    expect(resolveAttributes([shadowStrict, perKey], { headers: headers({}) })).toEqual({ ok: true, rules: [perKey] });
  });

  it("two rules on the same header read it once and share the value", () => {
    const resolved = resolveAttributes([perUser, perUserStrict], { headers: headers({ "x-user-id": "a" }) });
    expect(resolved).toEqual({ ok: true, rules: [perUser, perUserStrict], attributes: { "header:x-user-id": "a" } });
  });
});

describe("attribute values in counter keys", () => {
  it("each value has its own counter key, hash-tagged by tenant", () => {
    const a = counterKey("p:", perUser, { tenantId: "T1", attributes: { "header:x-user-id": "alice" } });
    const b = counterKey("p:", perUser, { tenantId: "T1", attributes: { "header:x-user-id": "bob" } });
    expect(a).toBe("p:{T1}2Halice");
    expect(b).toBe("p:{T1}2Hbob");
    expect(counterKey("p:", perQuery, { tenantId: "T1", attributes: { "query:user": "alice" } })).toBe("p:{T1}2Qalice");
  });

  it("a rule whose value is missing from the subject is a caller bug (throws)", () => {
    expect(() => counterKey("p:", perUser, { tenantId: "T1" })).toThrow(/per-user/);
  });

  it(`values over ${MAX_ATTRIBUTE_BYTES} bytes are counted by their digest; shorter ones as they are`, () => {
    const short = "é".repeat(128); // 256 bytes
    expect(boundedAttributeValue(short)).toBe(short);
    const long = "é".repeat(129); // 258 bytes
    const digest = boundedAttributeValue(long);
    expect(digest).toMatch(/^#[A-Za-z0-9_-]{22}$/);
    expect(boundedAttributeValue(long + "x")).not.toBe(digest);
    const key = counterKey("p:", perUser, { tenantId: "T1", attributes: { "header:x-user-id": digest } });
    expect(key.length).toBeLessThan(40);
  });
});

describe("the refusal cache keys attribute refusals by value", () => {
  it("two values of one rule have different refusal fingerprints", async () => {
    const { refusalFingerprint } = await import("../../limiter/refusalCache");
    const keyFor = (value: string) =>
      counterKey("p:", perUser, { tenantId: "T1", attributes: { "header:x-user-id": value } });
    expect(refusalFingerprint([perUser], [keyFor("alice")])).not.toBe(refusalFingerprint([perUser], [keyFor("bob")]));
  });
});
