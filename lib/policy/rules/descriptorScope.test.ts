import { describe, expect, it } from "vitest";
import { keyRulesSchema } from "../../control/admin/schemas";
import { compileRule, matchesRequest } from "../compiled/effectiveRules";
import { ruleSchema } from "./ruleSchema";
import { fromColumns, toColumns } from "./storedRule";

const base = { name: "per-address", scope: "descriptor", limit: 10, windowMs: 60_000 };
const perAddress = { descriptor: [{ key: "remote_address" }] };
const loginPerAddress = { descriptor: [{ key: "path", value: "/login" }, { key: "remote_address" }] };

function issues(input: unknown): [string, string][] {
  const parsed = ruleSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
}

describe("scope descriptor in the rule schema", () => {
  it("parses a descriptor rule and keeps its entries as given", () => {
    expect(ruleSchema.parse({ ...base, match: loginPerAddress }).match).toEqual(loginPerAddress);
  });

  it("scope descriptor requires match.descriptor, and match.descriptor requires that scope", () => {
    expect(issues({ ...base })).toContainEqual([
      "match.descriptor",
      expect.stringMatching(/required for scope descriptor/),
    ]);
    expect(issues({ ...base, scope: "key", match: perAddress })).toContainEqual([
      "match.descriptor",
      "match.descriptor is only for scope descriptor, not key",
    ]);
  });

  it("refuses empty, oversized and malformed descriptors with the field named", () => {
    expect(issues({ ...base, match: { descriptor: [] } })[0]![0]).toBe("match.descriptor");
    expect(issues({ ...base, match: { descriptor: Array(17).fill({ key: "k" }) } })[0]![1]).toMatch(/at most 16/);
    expect(issues({ ...base, match: { descriptor: [{ key: "" }] } })[0]![0]).toBe("match.descriptor.0.key");
    expect(issues({ ...base, match: { descriptor: [{ key: "k".repeat(65) }] } })[0]![1]).toMatch(/at most 64/);
    expect(issues({ ...base, match: { descriptor: [{ key: "k", value: "v".repeat(257) }] } })[0]![1]).toMatch(
      /at most 256/,
    );
    expect(issues({ ...base, match: { descriptor: [{ key: "k", value: "" }] } })[0]![0]).toBe(
      "match.descriptor.0.value",
    );
    expect(issues({ ...base, match: { descriptor: [{ key: "k", other: 1 }] } }).length).toBe(1);
  });

  it("a descriptor rule takes no methods, path, chargeOn nor concurrency", () => {
    expect(issues({ ...base, match: { ...perAddress, path: "/login" } })[0]![0]).toBe("match.descriptor");
    expect(issues({ ...base, match: perAddress, chargeOn: ["2xx"] })[0]![0]).toBe("chargeOn");
    expect(issues({ ...base, match: perAddress, algorithm: "concurrency" }).map(([p]) => p)).toContain("scope");
  });

  it("counting per value caps the window at one day; a fully valued descriptor may count a year", () => {
    expect(issues({ ...base, windowMs: 2 * 86_400_000, match: perAddress })[0]![0]).toBe("windowMs");
    expect(issues({ ...base, windowMs: 365 * 86_400_000, match: { descriptor: [{ key: "k", value: "v" }] } })).toEqual(
      [],
    );
  });

  it("a key override may not have scope descriptor (Envoy's calls carry no key)", () => {
    const parsed = keyRulesSchema.safeParse([{ ...base, match: perAddress }]);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(/may not have scope descriptor/);
  });

  it("is stored in its own column and read back unchanged; other rules store none", () => {
    const rule = ruleSchema.parse({ ...base, match: loginPerAddress });
    expect(toColumns(rule).descriptor).toEqual(loginPerAddress.descriptor);
    expect(fromColumns({ ...toColumns(rule) })).toEqual(rule);
    expect("descriptor" in toColumns(ruleSchema.parse({ name: "k", limit: 1, windowMs: 1000 }))).toBe(false);
    expect(
      fromColumns({ ...toColumns(ruleSchema.parse({ name: "k", limit: 1, windowMs: 1000 })), descriptor: null }).match,
    ).toEqual({});
  });

  it("never applies to an HTTP request", () => {
    const compiled = compileRule(ruleSchema.parse({ ...base, match: perAddress }), "r1", false);
    expect(matchesRequest(compiled, "GET", "/api/v1/echo")).toBe(false);
  });
});
