import { describe, expect, it } from "vitest";
import { contrastRatio, PALETTES, type Scheme } from "./chartPalette";

const hue = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return null;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
};

describe.each(["light", "dark"] as Scheme[])("the %s palette", (scheme) => {
  const palette = PALETTES[scheme];
  const legend = {
    refused: palette.refused,
    allowed: palette.allowed,
    shadow: palette.shadow,
    partial: palette.partial,
    ...Object.fromEntries(palette.series.map((c, i) => [`series ${i + 1}`, c])),
  };

  it.each(Object.entries(legend))("%s (%s) has at least 4.5:1 contrast on the card", (_name, colour) => {
    expect(contrastRatio(colour, palette.surface)).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps red for refusals: no series colour is red, orange-red or pink", () => {
    for (const colour of palette.series) {
      const h = hue(colour);
      expect(h === null || (h > 25 && h < 320), `${colour} has hue ${h}`).toBe(true);
    }
    expect(hue(palette.refused)! < 10 || hue(palette.refused)! > 350).toBe(true);
  });
});

describe("contrastRatio", () => {
  it("is 21 for black on white and 1 for a colour on itself", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#2458c6", "#2458c6")).toBe(1);
  });
});
