import { describe, expect, it } from "vitest";
import { parseDecideReply } from "./parseDecideReply";

describe("parseDecideReply", () => {
  it("reads one rule's fields in order", () => {
    expect(parseDecideReply([1700, 1, 1, 9, 500, 0, 400], 1)).toEqual({
      nowMs: 1700,
      committed: true,
      rules: [{ allowed: true, penalized: false, remaining: 9, resetMs: 500, retryAfterMs: 0, nextMs: 400 }],
    });
  });

  it("reads 2 as a refusal under a penalty in force", () => {
    expect(parseDecideReply([1700, 0, 2, 0, 9000, 9000, 9000], 1).rules[0]).toMatchObject({
      allowed: false,
      penalized: true,
      retryAfterMs: 9000,
    });
  });

  it.each([
    ["not an array", "OK", 1],
    ["too short", [1700, 1, 1, 9], 1],
    ["too long", [1700, 1, 1, 9, 500, 0, 400, 1], 1],
    ["a non-integer", [1700, 1, 1, "nine", 500, 0, 400], 1],
    ["a null", [1700, null, 1, 9, 500, 0, 400], 1],
    ["an unknown verdict", [1700, 0, 3, 9, 500, 0, 400], 1],
  ])("rejects a reply that is %s", (_, reply, rules) => {
    expect(() => parseDecideReply(reply, rules)).toThrow(/decide reply/);
  });
});
