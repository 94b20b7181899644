import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { counterField, counterKey, tenantKeyPrefix } from "./keys";

const subject = { tenantId: "aB3dE5fG", keyId: "Qw3Er5Ty", ip: "203.0.113.7", identifier: "user:42" };

describe("counterKey", () => {
  it.each([
    ["key", "sluice:{aB3dE5fG}2KQw3Er5Ty"],
    ["tenant", "sluice:{aB3dE5fG}2T"],
    ["ip", "sluice:{aB3dE5fG}2I203.0.113.7"],
    ["identifier", "sluice:{aB3dE5fG}2Duser:42"],
  ] as const)("scope %s charges its own subject: %s", (scope, expected) => {
    expect(
      counterKey("sluice:", limiterRule({ name: "per", ref: "1", scope, algorithm: "sliding_window" }), subject),
    ).toBe(expected);
  });

  it("ip scope counts IPv6 per /64 and IPv4-mapped IPv6 as IPv4 (a host cannot escape by rotating addresses)", () => {
    const rule = limiterRule({ ref: "1", scope: "ip", algorithm: "sliding_window" });
    const key = (ip: string) => counterKey("p:", rule, { tenantId: "t1", ip });
    expect(key("2001:db8:1:2::1")).toBe("p:{t1}2I2001:db8:1:2::/64");
    expect(key("2001:db8:1:2:ffff:1:2:3")).toBe(key("2001:db8:1:2::1"));
    expect(key("2001:db8:1:3::1")).not.toBe(key("2001:db8:1:2::1"));
    expect(key("::ffff:203.0.113.7")).toBe(key("203.0.113.7"));
  });

  it("a production key of the key scope fits the 32-byte allocation class (at most 30 characters)", () => {
    expect(
      counterKey("sluice:", limiterRule({ ref: "2s", algorithm: "token_bucket" }), subject).length,
    ).toBeLessThanOrEqual(30);
  });

  it("one subject key holds every rule of the subject, each under a field with one character per algorithm", () => {
    const rules = (["fixed_window", "sliding_window", "token_bucket", "gcra"] as const).map((algorithm) =>
      limiterRule({ ref: "1", algorithm }),
    );
    expect(new Set(rules.map((rule) => counterKey("p:", rule, subject)))).toEqual(new Set(["p:{aB3dE5fG}2KQw3Er5Ty"]));
    expect(rules.map(counterField)).toEqual(["f1", "w1", "t1", "g1"]);
  });

  it("sliding_log keeps a sorted set per rule and subject, never the subject key", () => {
    const rule = limiterRule({ ref: "1", algorithm: "sliding_log" });
    expect(counterKey("p:", rule, subject)).toBe("p:{aB3dE5fG}l1KQw3Er5Ty");
    expect(counterField(rule)).toBe("");
  });

  it("subject keys never take a rule's own key (an algorithm char after the tag)", () => {
    const key = counterKey("p:", limiterRule({ ref: "1", algorithm: "token_bucket" }), subject);
    expect(key.charAt("p:{aB3dE5fG}".length)).toMatch(/[0-9]/);
  });

  it("hashes long identifiers so keys stay small", () => {
    const key = counterKey("p:", limiterRule({ scope: "identifier", ref: "r" }), {
      tenantId: "t1",
      identifier: "x".repeat(256),
    });
    expect(key).toMatch(/^p:\{t1\}2D#[A-Za-z0-9_-]{22}$/);
  });

  it("a raw identifier of the hashed form never shares a long identifier's counter", () => {
    const rule = limiterRule({ scope: "identifier", ref: "r" });
    const long = "x".repeat(256);
    const forged = "#" + createHash("sha256").update(long).digest("base64url").slice(0, 22);
    const hashedKey = counterKey("p:", rule, { tenantId: "t1", identifier: long });
    expect(counterKey("p:", rule, { tenantId: "t1", identifier: forged })).not.toBe(hashedKey);
    // Escaping keeps raw identifiers apart from each other too.
    expect(counterKey("p:", rule, { tenantId: "t1", identifier: "#a" })).not.toBe(
      counterKey("p:", rule, { tenantId: "t1", identifier: "a" }),
    );
    expect(counterKey("p:", rule, { tenantId: "t1", identifier: "#a" })).not.toBe(
      counterKey("p:", rule, { tenantId: "t1", identifier: "##a" }),
    );
  });

  it("an overflow counter of the subject budget is a key no raw or hashed value can take", () => {
    const rule = limiterRule({ scope: "identifier", ref: "r" });
    const folded = counterKey("p:", rule, { tenantId: "t1", identifier: "anyone", overflow: { r: 3 } });
    expect(folded).toBe("p:{t1}2D#~3");
    expect(counterKey("p:", rule, { tenantId: "t1", identifier: "#~3" })).toBe("p:{t1}2D##~3");
    // Only the rule the budget folded: another rule of the request keeps the value's own counter.
    expect(
      counterKey("p:", limiterRule({ scope: "identifier", ref: "s" }), {
        tenantId: "t1",
        identifier: "anyone",
        overflow: { r: 3 },
      }),
    ).toBe("p:{t1}2Danyone");
  });

  it("throws on a subject lacking what the scope needs, and on a ref that could make keys ambiguous", () => {
    expect(() => counterKey("p:", limiterRule({ scope: "ip" }), { tenantId: "t1" })).toThrow(/scope ip/);
    expect(() => counterKey("p:", limiterRule({ ref: "Upper" }), subject)).toThrow(/invalid rule ref/);
    expect(() => counterKey("p:", limiterRule({ ref: "a@b" }), subject)).toThrow(/invalid rule ref/);
    expect(() => counterField(limiterRule({ ref: "a=b" }))).toThrow(/invalid rule ref/);
  });

  it("refuses tenant ids that could break the hash tag", () => {
    expect(() => tenantKeyPrefix("p:", "a}b")).toThrow(/invalid tenant id/);
  });
});
