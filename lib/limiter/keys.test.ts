import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { counterKey, tenantKeyPrefix } from "./keys";

const subject = { tenantId: "t1", keyId: "key_9", ip: "203.0.113.7", identifier: "user:42" };

describe("counterKey", () => {
  it.each([
    ["key", "sluice:{t1}:sw:per:k:key_9"],
    ["tenant", "sluice:{t1}:sw:per:t"],
    ["ip", "sluice:{t1}:sw:per:ip:203.0.113.7"],
    ["identifier", "sluice:{t1}:sw:per:id:user:42"],
  ] as const)("scope %s charges its own subject: %s", (scope, expected) => {
    expect(counterKey("sluice:", limiterRule({ name: "per", scope, algorithm: "sliding_window" }), subject)).toBe(expected);
  });

  it("puts the tenant in a hash tag so every key of a decision shares a Cluster slot", () => {
    const key = counterKey("p:", limiterRule({ algorithm: "gcra", ref: "x@key_9" }), subject);
    expect(key).toBe("p:{t1}:gc:x@key_9:k:key_9");
  });

  it("hashes long identifiers so keys stay small", () => {
    const key = counterKey("p:", limiterRule({ scope: "identifier" }), { tenantId: "t1", identifier: "x".repeat(256) });
    expect(key).toMatch(/^p:\{t1\}:fw:r:id:#[A-Za-z0-9_-]{22}$/);
  });

  it("throws when the subject lacks what the scope needs (a caller bug)", () => {
    expect(() => counterKey("p:", limiterRule({ scope: "ip" }), { tenantId: "t1" })).toThrow(/scope ip/);
  });

  it("refuses tenant ids that could break the hash tag", () => {
    expect(() => tenantKeyPrefix("p:", "a}b")).toThrow(/invalid tenant id/);
  });
});
