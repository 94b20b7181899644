import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { counterKey, tenantKeyPrefix } from "./keys";

const subject = { tenantId: "aB3dE5fG", keyId: "Qw3Er5Ty", ip: "203.0.113.7", identifier: "user:42" };

describe("counterKey", () => {
  it.each([
    ["key", "sluice:{aB3dE5fG}w1KQw3Er5Ty"],
    ["tenant", "sluice:{aB3dE5fG}w1T"],
    ["ip", "sluice:{aB3dE5fG}w1I203.0.113.7"],
    ["identifier", "sluice:{aB3dE5fG}w1Duser:42"],
  ] as const)("scope %s charges its own subject: %s", (scope, expected) => {
    expect(counterKey("sluice:", limiterRule({ name: "per", ref: "1", scope, algorithm: "sliding_window" }), subject)).toBe(expected);
  });

  it("a production key of the key scope fits the 32-byte allocation class (at most 30 characters)", () => {
    expect(counterKey("sluice:", limiterRule({ ref: "2s", algorithm: "token_bucket" }), subject).length).toBeLessThanOrEqual(30);
  });

  it("one character per algorithm, so a changed algorithm never reads the old state", () => {
    const keys = (["fixed_window", "sliding_window", "sliding_log", "token_bucket", "gcra"] as const).map((algorithm) =>
      counterKey("p:", limiterRule({ ref: "1", algorithm }), subject),
    );
    expect(new Set(keys).size).toBe(5);
  });

  it("puts the tenant in a hash tag so every key of a decision shares a Cluster slot", () => {
    expect(counterKey("p:", limiterRule({ algorithm: "gcra", ref: "per-key" }), subject)).toBe("p:{aB3dE5fG}gper-keyKQw3Er5Ty");
  });

  it("hashes long identifiers so keys stay small", () => {
    const key = counterKey("p:", limiterRule({ scope: "identifier", ref: "r" }), { tenantId: "t1", identifier: "x".repeat(256) });
    expect(key).toMatch(/^p:\{t1\}frD#[A-Za-z0-9_-]{22}$/);
  });

  it("throws on a subject lacking what the scope needs, and on a ref that could make keys ambiguous", () => {
    expect(() => counterKey("p:", limiterRule({ scope: "ip" }), { tenantId: "t1" })).toThrow(/scope ip/);
    expect(() => counterKey("p:", limiterRule({ ref: "Upper" }), subject)).toThrow(/invalid rule ref/);
    expect(() => counterKey("p:", limiterRule({ ref: "a@b" }), subject)).toThrow(/invalid rule ref/);
  });

  it("refuses tenant ids that could break the hash tag", () => {
    expect(() => tenantKeyPrefix("p:", "a}b")).toThrow(/invalid tenant id/);
  });
});
