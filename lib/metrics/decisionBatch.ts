/**
 * The decisions of one flush interval, aggregated in memory (the request path's only cost of
 * monitoring: a few Map updates, no I/O). lib/metrics/flushCommands.ts turns a batch into writes.
 *
 * What one decision adds, at the second it was recorded:
 * - a request under /api/v1 (`addRequest`), to the tenant's `*` cell: `a` if admitted, `r` if
 *   refused (429, or 503 under a `closed` rule), and also `s` if admitted while a shadow rule would
 *   have refused it (the extra refusals enforcing the shadow rules would cause). A request no rule
 *   matched (`decision` null) is admitted traffic too;
 * - per rule result, to that rule's cell: `a` if the rule passed it, `r` if an enforce rule
 *   refused, `s` if a shadow rule would have refused;
 * - with a key id: the key's requests and refusals in that minute (refusals also per refusing rule),
 *   and per enforce rule the lowest remaining/capacity the key saw (capacity: `burst` for
 *   token_bucket and gcra, else `limit`). Fail-open/closed results carry no real quota and are skipped;
 * - a decision of POST /api/v1/check (`addCheck`) adds its rule cells only: the request itself
 *   was already recorded by `addRequest`.
 *
 * Bounded: past `limits` new cells, clients or lows are not kept and are counted in `overflow`
 * (existing entries still count). Ids and refs that could not be part of a key are skipped the same way.
 */
import type { Decision, RuleResult } from "../limiter/types";
import { minuteOf, TOTAL_REF } from "./monitoringKeys";

export interface SeriesCell {
  tenantId: string;
  ref: string;
  /** Epoch second. */
  second: number;
  a: number;
  r: number;
  s: number;
}

export interface ClientStats {
  tenantId: string;
  keyId: string;
  minute: number;
  requests: number;
  refused: number;
  refusedByRule: Map<string, number>;
}

export interface LowMark {
  tenantId: string;
  keyId: string;
  ref: string;
  capacity: number;
  minute: number;
  fraction: number;
}

export interface BatchLimits {
  maxCells: number;
  maxClients: number;
  maxLows: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxCells: 20_000, maxClients: 20_000, maxLows: 20_000 };

const SAFE_PART = /^[A-Za-z0-9_-]{1,64}$/;
const QUOTA_SOURCES = new Set<RuleResult["source"]>(["redis", "cache", "fail_local"]);

/** The units a rule holds when whole: the bucket for token_bucket and gcra, the window's limit otherwise. */
export function capacityOf(result: RuleResult): number {
  const { algorithm, burst } = result.rule;
  return algorithm === "token_bucket" || algorithm === "gcra" ? burst : result.limit;
}

export class DecisionBatch {
  readonly cells = new Map<string, SeriesCell>();
  readonly clients = new Map<string, ClientStats>();
  readonly lows = new Map<string, LowMark>();
  overflow = 0;

  constructor(private readonly limits: BatchLimits = DEFAULT_BATCH_LIMITS) {}

  get size(): number {
    return this.cells.size + this.clients.size + this.lows.size;
  }

  addRequest(tenantId: string, keyId: string | undefined, decision: Decision | null, nowMs: number): void {
    if (!SAFE_PART.test(tenantId) || (keyId !== undefined && !SAFE_PART.test(keyId))) {
      this.overflow++;
      return;
    }
    const second = Math.floor(nowMs / 1000);
    const admitted = decision === null || decision.allowed;
    const total = this.cell(tenantId, TOTAL_REF, second);
    if (total) {
      if (admitted) total.a++;
      else total.r++;
      if (admitted && decision?.results.some((r) => r.rule.mode === "shadow" && !r.allowed)) total.s++;
    }
    if (decision) this.addResults(tenantId, decision, second);
    if (keyId === undefined) return;
    const client = this.client(tenantId, keyId, minuteOf(nowMs));
    if (client) {
      client.requests++;
      if (!admitted) client.refused++;
      for (const r of decision?.results ?? []) {
        if (r.rule.mode === "enforce" && !r.allowed) client.refusedByRule.set(r.rule.ref, (client.refusedByRule.get(r.rule.ref) ?? 0) + 1);
      }
    }
    for (const r of decision?.results ?? []) {
      if (r.rule.mode === "enforce" && QUOTA_SOURCES.has(r.source)) this.low(tenantId, keyId, r, minuteOf(nowMs));
    }
  }

  addCheck(tenantId: string, decision: Decision, nowMs: number): void {
    if (!SAFE_PART.test(tenantId)) {
      this.overflow++;
      return;
    }
    this.addResults(tenantId, decision, Math.floor(nowMs / 1000));
  }

  private addResults(tenantId: string, decision: Decision, second: number): void {
    for (const r of decision.results) {
      if (!SAFE_PART.test(r.rule.ref)) {
        this.overflow++;
        continue;
      }
      const cell = this.cell(tenantId, r.rule.ref, second);
      if (!cell) continue;
      if (r.allowed) cell.a++;
      else if (r.rule.mode === "shadow") cell.s++;
      else cell.r++;
    }
  }

  /** Counts an observation that a bound kept out; returns nothing to store it in. */
  private full(): undefined {
    this.overflow++;
    return undefined;
  }

  private cell(tenantId: string, ref: string, second: number): SeriesCell | undefined {
    const id = `${tenantId}\n${ref}\n${second}`;
    let cell = this.cells.get(id);
    if (!cell) {
      if (this.cells.size >= this.limits.maxCells) return this.full();
      cell = { tenantId, ref, second, a: 0, r: 0, s: 0 };
      this.cells.set(id, cell);
    }
    return cell;
  }

  private client(tenantId: string, keyId: string, minute: number): ClientStats | undefined {
    const id = `${tenantId}\n${keyId}\n${minute}`;
    let client = this.clients.get(id);
    if (!client) {
      if (this.clients.size >= this.limits.maxClients) return this.full();
      client = { tenantId, keyId, minute, requests: 0, refused: 0, refusedByRule: new Map() };
      this.clients.set(id, client);
    }
    return client;
  }

  private low(tenantId: string, keyId: string, result: RuleResult, minute: number): void {
    const capacity = capacityOf(result);
    if (!(capacity > 0)) return;
    const fraction = Math.min(1, Math.max(0, result.remaining / capacity));
    const id = `${tenantId}\n${keyId}\n${result.rule.ref}\n${capacity}\n${minute}`;
    const known = this.lows.get(id);
    if (known) {
      known.fraction = Math.min(known.fraction, fraction);
      return;
    }
    if (this.lows.size >= this.limits.maxLows) {
      this.full();
      return;
    }
    this.lows.set(id, { tenantId, keyId, ref: result.rule.ref, capacity, minute, fraction });
  }
}
