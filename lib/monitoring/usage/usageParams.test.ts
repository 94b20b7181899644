import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/http/errors";
import { usageInput } from "./usageParams";
import { usageCsv } from "./usageQuery";
import { usageRows } from "./usageRollup";
import { usageField } from "@/lib/monitoring/record/usageTally";

const NOW = Date.parse("2026-11-27T12:00:00Z");
const input = (query: string) => usageInput(new URLSearchParams(query), NOW);
const fieldOf = (query: string) => {
  try {
    input(query);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return Object.keys((error as AppError).extra.errors ?? {});
  }
  return null;
};

describe("the usage query string", () => {
  it("defaults to the last 31 days by day, and reads dates as midnight UTC", () => {
    expect(input("")).toEqual({
      from: new Date(NOW - 31 * 86_400_000),
      to: new Date(NOW),
      granularity: "day",
      groupBy: undefined,
      key: undefined,
      format: undefined,
    });
    expect(input("from=2026-10-01&to=2026-11-01&granularity=hour&groupBy=rule").from.toISOString()).toBe(
      "2026-10-01T00:00:00.000Z",
    );
  });

  it("is a 422 naming the field for a range over 400 days, from after to, bad enums, unknown or repeated parameters", () => {
    expect(fieldOf("from=2025-01-01&to=2026-11-01")).toEqual(["to"]);
    expect(fieldOf("from=2026-11-02&to=2026-11-01")).toEqual(["from"]);
    expect(fieldOf("granularity=week")).toEqual(["granularity"]);
    expect(fieldOf("groupBy=ip")).toEqual(["groupBy"]);
    expect(fieldOf("from=yesterday")).toEqual(["from"]);
    expect(fieldOf("key=not-a-key-id")).toEqual(["key"]);
    expect(fieldOf("limit=3")).toEqual([""]);
    expect(fieldOf("granularity=day&granularity=hour")).toEqual(["granularity"]);
    expect(fieldOf("from=2025-10-23T12:00:00Z&to=2026-11-27T12:00:00Z")).toBeNull();
  });
});

describe("usage rows", () => {
  it("are read back from a minute's hash, fields of another shape and empty rows dropped", () => {
    const cell = { tenantId: "t1", hour: 7, caller: "~a|b", rule: "*", tier: "" };
    expect(
      usageRows({
        [usageField(cell, "a")]: "4",
        [usageField(cell, "u")]: "8",
        [usageField({ ...cell, caller: "k" }, "r")]: "0",
        junk: "1",
      }),
    ).toEqual([{ ...cell, a: 4, r: 0, u: 8 }]);
  });

  it("are written as CSV with the group's column, quoted and safe from spreadsheet formulas", () => {
    expect(
      usageCsv(
        [
          { start: "2026-11-01T00:00:00.000Z", caller: "@10.0.0.1", admitted: 1, refused: 2, units: 3 },
          { start: "2026-11-01T00:00:00.000Z", admitted: 4, refused: 0, units: 4 },
        ],
        "caller",
      ),
    ).toBe(
      "start,caller,admitted,refused,units\r\n2026-11-01T00:00:00.000Z,'@10.0.0.1,1,2,3\r\n2026-11-01T00:00:00.000Z,,4,0,4\r\n",
    );
  });
});
