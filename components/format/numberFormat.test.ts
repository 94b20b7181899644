import { describe, expect, it } from "vitest";
import { formatPct } from "./numberFormat";

describe("formatPct", () => {
  it("never rounds some refusals to none, nor nearly all to all (issue 31: '0 %' for a refused client)", () => {
    expect(formatPct(0)).toBe("0 %");
    expect(formatPct(0.03)).toBe("<0.1 %");
    expect(formatPct(0.04)).toBe("<0.1 %");
    expect(formatPct(0.3)).toBe("0.3 %");
    expect(formatPct(99.96)).toBe(">99.9 %");
    expect(formatPct(99.6)).toBe("99.6 %");
    expect(formatPct(100)).toBe("100 %");
  });

  it("whole numbers from 10 %, one decimal below; a missing share is a dash", () => {
    expect(formatPct(37.4)).toBe("37 %");
    expect(formatPct(4.25)).toBe("4.3 %");
    expect(formatPct(null)).toBe("–");
  });
});
