import { describe, expect, it } from "vitest";
import { parseDescriptorMember, tallyDescriptors } from "./hotDescriptorsQuery";

const m = (ref: string, value: string) => JSON.stringify(["Tenant01", ref, value]);

describe("hot descriptors: the sets' members added up over the range", () => {
  it("calls and refusals summed per subject, most calls first, ties by rule then value", () => {
    const rows = tallyDescriptors(
      [
        [m("1", "10.0.0.1"), 3],
        [m("1", "10.0.0.2"), 5],
        [m("1", "10.0.0.1"), 4],
        [m("2", "="), 7],
      ],
      [
        [m("1", "10.0.0.1"), 2],
        [m("1", "10.0.0.1"), 1],
      ],
      10,
    );
    expect(rows.map((r) => [r.ref, r.value, r.requests, r.refused])).toEqual([
      ["1", "10.0.0.1", 7, 3],
      ["2", "=", 7, 0],
      ["1", "10.0.0.2", 5, 0],
    ]);
  });

  it("keeps the limit; a member that does not parse or has no calls is left out", () => {
    const rows = tallyDescriptors(
      [
        [m("1", "a"), 2],
        [m("1", "b"), 1],
        ["not json", 9],
        [JSON.stringify(["Tenant01", "1"]), 9],
      ],
      [[m("1", "only-refused"), 4]],
      1,
    );
    expect(rows.map((r) => r.value)).toEqual(["a"]);
  });

  it("members read back defensively", () => {
    expect(parseDescriptorMember(m("1", "x:/y"))).toEqual({ tenantId: "Tenant01", ref: "1", value: "x:/y" });
    expect(parseDescriptorMember("[1,2,3]")).toBeNull();
    expect(parseDescriptorMember("{")).toBeNull();
  });
});
