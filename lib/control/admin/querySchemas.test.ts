import { describe, expect, it } from "vitest";
import { auditQuerySchema, keyQuotaQuerySchema } from "./querySchemas";

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);

describe("keyQuotaQuerySchema", () => {
  it("accepts IPv4 and IPv6, trimmed, with IPv4-mapped IPv6 as plain IPv4 (as enforcement sees clients)", () => {
    expect(keyQuotaQuerySchema.parse({ ip: " 192.0.2.7 " })).toEqual({ ip: "192.0.2.7" });
    expect(keyQuotaQuerySchema.parse({ ip: "::ffff:192.0.2.7" })).toEqual({ ip: "192.0.2.7" });
    expect(keyQuotaQuerySchema.parse({ ip: "2001:db8::1", identifier: "user-1" })).toEqual({
      ip: "2001:db8::1",
      identifier: "user-1",
    });
    // The contract's identifier is any string: control characters are a binary-safe key part.
    expect(keyQuotaQuerySchema.parse({ identifier: "user\u0000\t1" })).toEqual({ identifier: "user\u0000\t1" });
  });

  it.each([
    [{ ip: "nope" }, "ip: ip must be an IPv4 or IPv6 address"],
    [{ identifier: "" }, "identifier: identifier must not be empty"],
    [{ identifier: "x".repeat(257) }, "identifier: identifier must be at most 256 characters"],
    [
      { identifier: "user\ud800" },
      "identifier: identifier must not contain an unpaired surrogate (U+D800 at position 4); send well-formed Unicode",
    ],
  ])("refuses %j naming the field", (input, message) => {
    expect(messages(keyQuotaQuerySchema.safeParse(input))).toEqual([message]);
  });

  it("refuses unknown parameters", () => {
    expect(keyQuotaQuerySchema.safeParse({ key: "x" }).success).toBe(false);
  });
});

describe("auditQuerySchema", () => {
  it("defaults to 100 per page; `before` is an audit id", () => {
    expect(auditQuerySchema.parse({})).toEqual({ limit: 100 });
    expect(auditQuerySchema.parse({ limit: "2", before: "123" })).toEqual({ limit: 2, before: "123" });
  });

  it.each(["0", "-1", "abc", "1".repeat(19)])("refuses before=%s", (before) => {
    expect(messages(auditQuerySchema.safeParse({ before }))).toEqual([
      "before: before must be the id of an audit event",
    ]);
  });
});
