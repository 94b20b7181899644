import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KEY_PATTERN } from "../../common/apiKeyFormat";
import { createTokenSchema } from "./tokenSchemas";
import { hashToken, isAdminTokenShape, mintToken } from "./tokenSecret";

describe("admin token secrets", () => {
  it("mints sluice_tok_<32 base62>, stores the SHA-256 of the whole token, and every token differs", () => {
    const a = mintToken();
    const b = mintToken();
    expect(a.token).toMatch(/^sluice_tok_[0-9A-Za-z]{32}$/);
    expect(a.secretHash).toBe(createHash("sha256").update(a.token).digest("hex"));
    expect(hashToken(a.token)).toBe(a.secretHash);
    expect(a.token).not.toBe(b.token);
  });

  it("tells a token from API keys and other credentials (no lookup for those)", () => {
    const { token } = mintToken();
    expect(isAdminTokenShape(token)).toBe(true);
    expect(KEY_PATTERN.test(token)).toBe(false);
    expect(isAdminTokenShape(`sluice_abcdEFGH_${"x".repeat(22)}`)).toBe(false);
    expect(isAdminTokenShape(`${token}x`)).toBe(false);
    expect(isAdminTokenShape("some-admin-token-from-the-environment")).toBe(false);
  });
});

describe("createTokenSchema", () => {
  const now = Date.parse("2026-06-01T00:00:00Z");
  const schema = createTokenSchema(() => now);

  it("accepts a name, a role, and optionally a tenant and a future expiry", () => {
    expect(schema.parse({ name: "ci.deploy", role: "viewer" })).toEqual({
      name: "ci.deploy",
      role: "viewer",
      tenantId: null,
      expiresAt: null,
    });
    expect(schema.parse({ name: "a", role: "admin", tenantId: "abcdEFGH", expiresAt: "2026-06-02T00:00:00Z" })).toEqual(
      { name: "a", role: "admin", tenantId: "abcdEFGH", expiresAt: new Date("2026-06-02T00:00:00Z") },
    );
  });

  it.each([
    ["a past expiry", { name: "a", role: "admin", expiresAt: "2026-05-31T23:59:59Z" }],
    ["the expiry now", { name: "a", role: "admin", expiresAt: "2026-06-01T00:00:00Z" }],
    ["an expiry without a zone", { name: "a", role: "admin", expiresAt: "2026-07-01T00:00:00" }],
    ["a name with a space", { name: "a b", role: "admin" }],
    ["a name of 65 characters", { name: "a".repeat(65), role: "admin" }],
    ["an unknown role", { name: "a", role: "owner" }],
    ["a malformed tenant id", { name: "a", role: "admin", tenantId: "x" }],
    ["an unknown field", { name: "a", role: "admin", scope: "all" }],
  ])("refuses %s", (_, input) => {
    expect(schema.safeParse(input).success).toBe(false);
  });
});
