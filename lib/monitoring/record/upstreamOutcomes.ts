/**
 * Upstream health as the gateway sees it (issue 31, point 4): per tenant and minute, the answers
 * its clients got from the upstream (or Sluice's own 502/504 for it) by status class, the 502s and
 * 504s apart, and the time to the answer's status in a fixed histogram, so percentiles can be read
 * for any range (upstreamHealthQuery.ts) and instances add up. Memory only here; the per-second
 * flush writes the cells to the tenant's hash of the hour (`{T}mu:<hour>`, fields
 * `<minute 0-59>:<field>`: lib/monitoring/record/flushCommands.ts).
 *
 * Bounded: at most `maxCells` tenant-minutes per flush interval; past that an outcome is not kept
 * (the caller counts it as overflow).
 */

/** Upper bounds (ms) of the latency buckets; one more bucket holds everything slower. */
export const LATENCY_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000] as const;

export const STATUS_FIELDS = ["2xx", "3xx", "4xx", "5xx", "502", "504"] as const;
export type StatusField = (typeof STATUS_FIELDS)[number];

/** The latency bucket of a duration: the first bound it does not exceed, else the last bucket. */
export function latencyBucket(latencyMs: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => latencyMs <= bound);
  return i < 0 ? LATENCY_BOUNDS_MS.length : i;
}

/** The fields one answer adds to: its class, 502/504 apart too, and its latency bucket `l<i>`. */
export function outcomeFields(status: number, latencyMs: number): string[] {
  const fields: string[] = [];
  if (status >= 200 && status < 600) fields.push(`${Math.floor(status / 100)}xx`);
  if (status === 502 || status === 504) fields.push(String(status));
  fields.push(`l${latencyBucket(Math.max(0, latencyMs))}`);
  return fields;
}

export interface UpstreamCell {
  tenantId: string;
  /** Epoch minute. */
  minute: number;
  fields: Map<string, number>;
}

export class UpstreamOutcomes {
  readonly cells = new Map<string, UpstreamCell>();

  constructor(private readonly maxCells: number) {}

  get size(): number {
    return this.cells.size;
  }

  /** Returns false when the outcome could not be kept (the bound was reached). */
  add(tenantId: string, status: number, latencyMs: number, nowMs: number): boolean {
    const minute = Math.floor(nowMs / 60_000);
    const id = `${tenantId}\n${minute}`;
    let cell = this.cells.get(id);
    if (!cell) {
      if (this.cells.size >= this.maxCells) return false;
      this.cells.set(id, (cell = { tenantId, minute, fields: new Map() }));
    }
    for (const field of outcomeFields(status, latencyMs)) cell.fields.set(field, (cell.fields.get(field) ?? 0) + 1);
    return true;
  }
}
