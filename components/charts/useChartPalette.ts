"use client";
/** The chart palette of the colour scheme in force (the system's; it follows a change live). */
import { useSyncExternalStore } from "react";
import { PALETTES, type Palette } from "./chartPalette";

const QUERY = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(QUERY);
  media.addEventListener("change", onChange);
  return () => media.removeEventListener("change", onChange);
}

export function useChartPalette(): Palette {
  const dark = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
  return PALETTES[dark ? "dark" : "light"];
}
