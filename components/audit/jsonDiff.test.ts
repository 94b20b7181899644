import { describe, expect, it } from "vitest";
import { diffRows, prettyJson } from "./jsonDiff";

const kinds = (rows: ReturnType<typeof diffRows>) => rows.map((r) => `${r.left?.kind ?? "-"}|${r.right?.kind ?? "-"}`);

describe("prettyJson", () => {
  it("sorts keys at every level so key order never shows as a change", () => {
    expect(prettyJson({ b: 1, a: { d: 2, c: 3 } })).toEqual(prettyJson({ a: { c: 3, d: 2 }, b: 1 }));
  });
  it("shows nothing for a missing side", () => {
    expect(prettyJson(null)).toEqual([]);
    expect(prettyJson(undefined)).toEqual([]);
  });
});

describe("diffRows", () => {
  it("puts a changed value next to its old value and keeps unchanged lines on both sides", () => {
    const rows = diffRows({ name: "a", limit: 10, windowMs: 60000 }, { name: "a", limit: 20, windowMs: 60000 });
    expect(kinds(rows)).toEqual(["same|same", "removed|added", "same|same", "same|same", "same|same"]);
    const changed = rows[1]!;
    expect(changed.left?.text).toContain('"limit": 10');
    expect(changed.right?.text).toContain('"limit": 20');
  });

  it("marks everything added for a creation and everything removed for a deletion", () => {
    expect(kinds(diffRows(null, { id: "x" }))).toEqual(["-|added", "-|added", "-|added"]);
    expect(kinds(diffRows({ id: "x" }, null))).toEqual(["removed|-", "removed|-", "removed|-"]);
  });

  it("finds an inserted rule in a list without marking the rules around it", () => {
    const r = (name: string) => ({ name, limit: 1 });
    const rows = diffRows([r("a"), r("c")], [r("a"), r("b"), r("c")]);
    const added = rows.filter((row) => row.right?.kind === "added").map((row) => row.right!.text.trim());
    // Four lines of one object are new (which `{` of two equal ones is "the new one" is a tie).
    expect(added).toHaveLength(4);
    expect(added).toContain('"name": "b"');
    expect(rows.filter((row) => row.left?.kind === "removed")).toEqual([]);
  });

  it("keeps markup as text lines", () => {
    const rows = diffRows(null, { name: "<img src=x onerror=alert(1)>" });
    expect(rows.map((row) => row.right?.text).join("\n")).toContain('"name": "<img src=x onerror=alert(1)>"');
  });
});
