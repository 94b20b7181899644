import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plainText, plainTextProblem } from "./textInput";

describe("plainTextProblem", () => {
  it.each([
    ["a\u0000b", "control characters (U+0000 at position 1)"],
    ["\u0001", "control characters (U+0001 at position 0)"],
    ["tab\there", "control characters (U+0009 at position 3)"],
    ["del\u007f", "control characters (U+007F at position 3)"],
    ["c1\u0085", "control characters (U+0085 at position 2)"],
    ["lone\ud800", "unpaired surrogate (U+D800 at position 4)"],
    ["\udfffx", "unpaired surrogate (U+DFFF at position 0)"],
    ["ab\udc00\ud800", "unpaired surrogate (U+DC00 at position 2)"],
  ])("refuses %j: %s", (text, problem) => {
    expect(plainTextProblem(text)).toContain(problem);
  });

  it.each([
    "Acme <b>GmbH</b> & Co",
    "Zürich 🚀",
    "\u202eright-to-left",
    "日本語",
    "a\u00a0b",
    "\u{1f600}\u{10ffff}",
    "",
  ])("accepts %j (markup, non-ASCII, astral characters)", (text) => {
    expect(plainTextProblem(text)).toBeNull();
  });
});

describe("plainText", () => {
  const name = plainText(z.string().trim().min(1, "name must not be empty"), "name");

  it("adds the check to the schema, naming the field", () => {
    const result = name.safeParse("x\u0000");
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual([
      "name must not contain control characters (U+0000 at position 1)",
    ]);
  });

  it("runs after the schema's own transforms: surrounding whitespace is trimmed, not refused", () => {
    expect(name.parse("\t name \n")).toBe("name");
  });
});
