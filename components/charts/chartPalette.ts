/**
 * The chart colours, one palette with a light and a dark variant of each colour. Red means
 * "refused" and nothing else: the series colours (tenants, rules) hold no red, orange-red or pink.
 * Every colour is at least 4.5:1 against the card surface of its scheme (app/globals.css
 * --surface), checked by chartPalette.test.ts. Pure.
 */

export type Scheme = "light" | "dark";

export interface Palette {
  surface: string;
  refused: string;
  allowed: string;
  shadow: string;
  /** Marks the last bucket when it is still filling (partial). */
  partial: string;
  series: readonly string[];
}

export const PALETTES: Record<Scheme, Palette> = {
  light: {
    surface: "#ffffff",
    refused: "#b3261e",
    allowed: "#2458c6",
    shadow: "#8a5a00",
    partial: "#5c6675",
    series: ["#1f5bc4", "#00727f", "#7a3e9d", "#2e7d32", "#7a5c00", "#4a5a70", "#3f3fa0", "#005f8f"],
  },
  dark: {
    surface: "#1b2129",
    refused: "#ff8a80",
    allowed: "#6d9bff",
    shadow: "#f0b44c",
    partial: "#9aa5b4",
    series: ["#7aa7ff", "#4fc3cf", "#c79be0", "#7fd69b", "#e0c060", "#a8b6c8", "#a5a5f0", "#6cc4f0"],
  },
};

export function seriesColour(palette: Palette, index: number): string {
  return palette.series[index % palette.series.length]!;
}

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
