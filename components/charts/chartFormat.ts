/** Numbers as the charts and tables show them: counts, rates, shares (dates: format/dateFormat.ts). */

export function formatCount(n: number): string {
  return n.toLocaleString("en");
}

/** Requests per second with a sensible number of digits. */
export function formatRate(perSecond: number): string {
  if (perSecond === 0) return "0";
  if (perSecond < 10) return perSecond.toFixed(2);
  return perSecond.toFixed(1);
}

export function formatPct(pct: number | null): string {
  if (pct === null) return "–";
  if (pct === 0 || pct >= 10) return `${pct.toFixed(0)} %`;
  return `${pct.toFixed(1)} %`;
}
