"use client";
/**
 * What the monitoring views of a page show: the time range, read from and written to the URL
 * (so a reload or a shared link shows the same window; timeRange.ts), and whether live updates
 * are paused (local to the page: a paused view freezes on what it shows).
 */
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { rangeFromSearch, searchWithRange, type TimeRange } from "./timeRange";

export interface MonitoringView {
  range: TimeRange;
  paused: boolean;
}

export function useMonitoringView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [pausedAt, setPausedAt] = useState<number | null>(null);
  const range = rangeFromSearch(params);

  function setRange(next: TimeRange) {
    const qs = searchWithRange(new URLSearchParams(window.location.search), next).toString();
    router.replace(`${pathname}${qs ? `?${qs}` : ""}${window.location.hash}`, { scroll: false });
  }

  const view: MonitoringView = { range, paused: pausedAt !== null };
  return { view, setRange, pausedAt, setPaused: (paused: boolean) => setPausedAt(paused ? Date.now() : null) };
}
