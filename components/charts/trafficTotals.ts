/**
 * The totals line over the traffic chart, in words that say what each figure counts. A tenant's
 * `shadowRefused` counts the ADMITTED requests a shadow rule would have refused: the extra 429s
 * enforcing the shadow rules would cause. A shadow rule's own line (refusal rates by rule) counts
 * every request it would refuse, those an enforce rule refused anyway included, so it is larger;
 * calling both "would be refused by shadow rules" made them look like one figure that disagreed
 * (issue 31, point 6).
 */
import type { TrafficSeries } from "@/lib/monitoring/query/monitoringAnswers";
import { formatCount } from "@/components/format/numberFormat";

export interface TrafficTotals {
  allowed: number;
  refused: number;
  shadowRefused: number;
}

export function trafficTotals(series: Pick<TrafficSeries, "points">): TrafficTotals {
  const totals = { allowed: 0, refused: 0, shadowRefused: 0 };
  for (const p of series.points) {
    totals.allowed += p.allowed;
    totals.refused += p.refused;
    totals.shadowRefused += p.shadowRefused;
  }
  return totals;
}

/** "1,021 more would be refused if the shadow rules were enforced" (of the allowed ones). */
export function shadowWords(totals: TrafficTotals): string {
  return `${formatCount(totals.shadowRefused)} more would be refused if the shadow rules were enforced`;
}

export function trafficSummary(totals: TrafficTotals): string {
  return `${formatCount(totals.allowed)} allowed, ${formatCount(totals.refused)} refused, ${shadowWords(totals)}`;
}
