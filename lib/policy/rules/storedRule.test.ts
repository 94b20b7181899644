import { describe, expect, it } from "vitest";
import { ruleSchema } from "./ruleSchema";
import { fromColumns, toColumns } from "./storedRule";

const base = { name: "login", limit: 5, windowMs: 60_000 };

describe("match.caseInsensitive in the database columns", () => {
  it("round-trips when true; false and absent are one rule, read back without it", () => {
    const insensitive = ruleSchema.parse({ ...base, match: { path: "/api/v1/login", caseInsensitive: true } });
    expect(toColumns(insensitive).caseInsensitive).toBe(true);
    expect(fromColumns(toColumns(insensitive))).toEqual(insensitive);
    const explicitFalse = ruleSchema.parse({ ...base, match: { path: "/api/v1/login", caseInsensitive: false } });
    expect(toColumns(explicitFalse).caseInsensitive).toBe(false);
    expect(fromColumns(toColumns(explicitFalse)).match).toEqual({ path: "/api/v1/login" });
  });
});
