import { describe, expect, it } from "vitest";
import { hashKey, keyIdOf, mintKey, verifyKey } from "./apiKeySecret";

describe("API key secrets", () => {
  it("mints sluice_<id>_<22 base62> with the public prefix and a SHA-256 hash, never the key", () => {
    const minted = mintKey("Ab3dE5fG");
    expect(minted.key).toMatch(/^sluice_Ab3dE5fG_[0-9A-Za-z]{22}$/);
    expect(minted.prefix).toBe("sluice_Ab3dE5fG");
    expect(minted.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(minted.secretHash).toBe(hashKey(minted.key));
  });

  it("draws at least 128 random bits of secret: 22 characters over all 62 of base62", () => {
    const secrets = Array.from({ length: 500 }, () => mintKey("Ab3dE5fG").key.split("_")[2]!);
    const alphabet = new Set(secrets.join(""));
    // 11,000 draws: any of the 62 characters is missed with a probability below 1e-75.
    expect(alphabet.size).toBe(62);
    for (const secret of secrets) expect(secret.length * Math.log2(alphabet.size)).toBeGreaterThan(128);
  });

  it("two keys never share a secret", () => {
    const secrets = new Set(Array.from({ length: 200 }, () => mintKey("Ab3dE5fG").key));
    expect(secrets.size).toBe(200);
  });

  it("verifies only the exact key", () => {
    const { key, secretHash } = mintKey("Ab3dE5fG");
    expect(verifyKey(key, secretHash)).toBe(true);
    expect(verifyKey(key.slice(0, -1) + (key.endsWith("a") ? "b" : "a"), secretHash)).toBe(false);
    expect(verifyKey(key, "not-hex")).toBe(false);
  });

  it.each([
    ["sluice_Ab3dE5fG_0123456789abcdefABCDEF", "Ab3dE5fG"],
    ["sluice_Ab3dE5fG_short", null],
    ["other_Ab3dE5fG_0123456789abcdefABCDEF", null],
    ["sluice_Ab3d-5fG_0123456789abcdefABCDEF", null],
    ["", null],
  ])("keyIdOf(%j) = %j", (presented, id) => {
    expect(keyIdOf(presented)).toBe(id);
  });
});
