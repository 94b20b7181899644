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

/**
 * A share in per cent. Rounding never turns some into none or all: a client refused 3 times in
 * 10,000 requests is "<0.1 %", not "0 %"; one admitted once in 10,000 is ">99.9 %", not "100 %".
 */
export function formatPct(pct: number | null): string {
  if (pct === null) return "–";
  if (pct <= 0 || pct >= 100) return `${pct.toFixed(0)} %`;
  if (pct < 0.1) return "<0.1 %";
  if (pct > 99.9) return ">99.9 %";
  if (pct >= 10 && pct < 99.5) return `${pct.toFixed(0)} %`;
  return `${pct.toFixed(1)} %`;
}
