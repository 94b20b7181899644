import { describe, expect, it } from "vitest";
import { parseDecideReply } from "./parseDecideReply";

describe("parseDecideReply", () => {
  it("reads one rule's fields in order", () => {
    expect(parseDecideReply([1700, 1, 1, 9, 500, 0, 400], 1)).toEqual({
      nowMs: 1700,
      committed: true,
      rules: [{ allowed: true, remaining: 9, resetMs: 500, retryAfterMs: 0, nextMs: 400 }],
    });
  });

  it.each([
    ["not an array", "OK", 1],
    ["too short", [1700, 1, 1, 9], 1],
    ["too long", [1700, 1, 1, 9, 500, 0, 400, 1], 1],
    ["a non-integer", [1700, 1, 1, "nine", 500, 0, 400], 1],
    ["a null", [1700, null, 1, 9, 500, 0, 400], 1],
  ])("rejects a reply that is %s", (_, reply, rules) => {
    expect(() => parseDecideReply(reply, rules)).toThrow(/decide reply/);
  });
});
