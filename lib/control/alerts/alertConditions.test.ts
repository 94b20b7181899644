import { describe, expect, it } from "vitest";
import { limitedMember } from "../../monitoring/record/limitedSubjects";
import { alertWindow, clientsOverLimit, refusalRateFires, trailingMinutes, trailingRange } from "./alertConditions";

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 25, 2, 7, 30, 450);
const member = (value: string, ref = "r1", tenantId = "Tenant01") =>
  limitedMember({ tenantId, ref, scope: "key", value });

describe("windows from an injected time", () => {
  it("a condition window is epoch-aligned to its length and holds now", () => {
    expect(alertWindow(NOW, 5)).toEqual({
      index: Math.floor(NOW / (5 * MINUTE)),
      fromMs: Date.UTC(2026, 10, 25, 2, 5),
      toMs: Date.UTC(2026, 10, 25, 2, 10),
    });
    // The last millisecond of a window and the first of the next: two windows.
    expect(alertWindow(Date.UTC(2026, 10, 25, 2, 10) - 1, 5).index + 1).toBe(
      alertWindow(Date.UTC(2026, 10, 25, 2, 10), 5).index,
    );
  });

  it("the refusal rate looks at the trailing minutes on whole seconds", () => {
    expect(trailingRange(NOW, 3)).toEqual({
      fromMs: Date.UTC(2026, 10, 25, 2, 4, 30),
      toMs: Date.UTC(2026, 10, 25, 2, 7, 30),
    });
  });

  it("the client limit looks at the trailing epoch minutes, the current one included", () => {
    const current = Math.floor(NOW / MINUTE);
    expect(trailingMinutes(NOW, 3)).toEqual([current - 2, current - 1, current]);
    expect(trailingMinutes(NOW, 1)).toEqual([current]);
  });
});

describe("refusal rate above X % for Y minutes", () => {
  const condition = { thresholdPct: 50, minutes: 5, minRequests: 10 };

  it.each([
    ["above the threshold", { allowed: 4, refused: 6 }, { requests: 10, refused: 6, refusedPct: 60 }],
    ["exactly at the threshold: not above", { allowed: 5, refused: 5 }, null],
    ["below the threshold", { allowed: 9, refused: 1 }, null],
    ["too few requests to tell", { allowed: 0, refused: 9 }, null],
    ["no traffic at all", { allowed: 0, refused: 0 }, null],
  ])("%s", (_name, totals, expected) => {
    expect(refusalRateFires(condition, totals)).toEqual(expected);
  });

  it("rounds the observed percentage to hundredths", () => {
    expect(refusalRateFires({ ...condition, thresholdPct: 10 }, { allowed: 2, refused: 1 + 9 })?.refusedPct).toBe(
      83.33,
    );
  });
});

describe("a client hit its limit N times", () => {
  it("lists subjects at or over N, most hits first, ties by member, ignoring other tenants and unreadable members", () => {
    const counts = new Map([
      [member("k1"), 3],
      [member("k2"), 7],
      [member("k3"), 2],
      [member("k0"), 3],
      [member("kx", "r1", "OtherTen"), 50],
      ["not json", 99],
    ]);
    expect(clientsOverLimit({ hits: 3, windowMinutes: 5 }, "Tenant01", counts)).toEqual([
      { subject: { ref: "r1", scope: "key", value: "k2" }, hits: 7 },
      { subject: { ref: "r1", scope: "key", value: "k0" }, hits: 3 },
      { subject: { ref: "r1", scope: "key", value: "k1" }, hits: 3 },
    ]);
  });

  it("lists at most 10 subjects", () => {
    const counts = new Map(
      Array.from({ length: 15 }, (_, i) => [member(`k${String(i).padStart(2, "0")}`), 5] as [string, number]),
    );
    expect(clientsOverLimit({ hits: 1, windowMinutes: 1 }, "Tenant01", counts)).toHaveLength(10);
  });
});
