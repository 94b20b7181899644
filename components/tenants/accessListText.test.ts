import { describe, expect, it } from "vitest";
import { accessListsSchema } from "@/lib/policy/access/accessListSchema";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";
import { listErrors, listToText, parseListText } from "./accessListText";

describe("access-list text areas", () => {
  it("one entry per line; blank lines are skipped without shifting line numbers", () => {
    expect(parseListText("10.0.0.0/8\n\n  2001:db8::1  \r\nkey:AbCd1234\n")).toEqual({
      entries: ["10.0.0.0/8", "2001:db8::1", "key:AbCd1234"],
      lineOf: [1, 3, 4],
    });
    expect(parseListText("")).toEqual({ entries: [], lineOf: [] });
    expect(listToText(["a", "b"])).toBe("a\nb");
  });

  it("the shared schema's errors land on the lines they came from, list-wide errors first", () => {
    const allow = parseListText("10.0.0.1\n\n10.0.0.300\nexample.com");
    const parsed = accessListsSchema.safeParse({ allow: allow.entries, deny: [] });
    expect(parsed.success).toBe(false);
    const messages = listErrors(zodFieldErrors(parsed.error!), "allow", allow);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^Line 3: "10\.0\.0\.300" is not/);
    expect(messages[1]).toMatch(/^Line 4: "example\.com" is not/);
    expect(
      listErrors({ deny: "deny may hold at most 1,000 entries", "deny.2": "x" }, "deny", parseListText("a\nb\nc")),
    ).toEqual(["deny may hold at most 1,000 entries", "Line 3: x"]);
  });
});
