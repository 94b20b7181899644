import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashSessionToken, isSessionTokenShape, mintSessionToken } from "./sessionToken";

describe("session tokens", () => {
  it("are 256 random bits in base64url, stored only as their SHA-256 hex", () => {
    const { token, tokenHash } = mintSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(tokenHash).toBe(hashSessionToken(token));
    expect(tokenHash).not.toContain(token);
  });

  it("never repeat", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => mintSessionToken().token));
    expect(tokens.size).toBe(1000);
  });

  it.each([
    ["a minted token", mintSessionToken().token, true],
    ["one character short", mintSessionToken().token.slice(1), false],
    ["padding", `${mintSessionToken().token.slice(1)}=`, false],
    ["a SQL fragment", `' OR 1=1 --${"a".repeat(32)}`, false],
    ["empty", "", false],
  ])("shape check: %s → %s", (_, value, expected) => {
    expect(isSessionTokenShape(value)).toBe(expected);
  });
});
