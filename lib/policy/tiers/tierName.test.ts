import { describe, expect, it } from "vitest";
import { keyTierSchema, tierNameSchema } from "./tierName";
import { createKeySchema, keyPatchSchema, tierRulesSchema } from "../../control/admin/schemas";

const rule = (scope: string) => ({ name: `r-${scope}`, scope, limit: 10, windowMs: 60_000 });

describe("tier names", () => {
  it("accepts lower-case letters, digits, _ and -, starting with a letter or digit, up to 64", () => {
    for (const name of ["pro", "free-2", "a", "0_x", "x".repeat(64)])
      expect(tierNameSchema.safeParse(name).success).toBe(true);
  });

  it("refuses anything else", () => {
    for (const name of ["", "Pro", "-pro", "_x", "pro plan", "x".repeat(65), "pro/1", 7])
      expect(tierNameSchema.safeParse(name).success).toBe(false);
  });

  it("a key's tier may be null (none)", () => {
    expect(keyTierSchema.parse(null)).toBeNull();
  });
});

describe("bodies that name a tier", () => {
  it("POST .../keys takes an optional tier, and refuses a bad one", () => {
    expect(createKeySchema.parse({ name: "k", tier: "pro" }).tier).toBe("pro");
    expect(createKeySchema.parse({ name: "k" }).tier).toBeUndefined();
    expect(createKeySchema.safeParse({ name: "k", tier: "Pro" }).success).toBe(false);
  });

  it("PATCH /api/admin/keys/{id} takes a tier, null, an expiry, or both; not nothing", () => {
    expect(keyPatchSchema.parse({ tier: "pro" })).toEqual({ tier: "pro" });
    expect(keyPatchSchema.parse({ tier: null })).toEqual({ tier: null });
    expect(keyPatchSchema.parse({ expiresAt: null, tier: "pro" })).toEqual({ expiresAt: null, tier: "pro" });
    expect(keyPatchSchema.safeParse({}).success).toBe(false);
    expect(keyPatchSchema.safeParse({ tier: "bad name" }).success).toBe(false);
    expect(keyPatchSchema.safeParse({ tier: "pro", other: 1 }).success).toBe(false);
  });
});

describe("a tier's rules", () => {
  it("take the scopes a key's overrides take", () => {
    expect(tierRulesSchema.safeParse(["key", "ip"].map(rule)).success).toBe(true);
  });

  it("refuse scopes tenant, identifier and descriptor, naming the rule's scope", () => {
    for (const scope of ["tenant", "identifier"]) {
      const parsed = tierRulesSchema.safeParse([rule(scope)]);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["0.scope", `a tier rule may not have scope ${scope} (use key, ip, header or query)`],
      ]);
    }
  });
});
