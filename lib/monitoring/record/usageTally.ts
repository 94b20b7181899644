/**
 * Metering: the decisions of one flush interval per tenant, hour, caller, rule and tier, for the
 * usage roll-up into Postgres (lib/monitoring/usage/usageRollup.ts, CONTRACT.md "Quotas, grants
 * and usage").
 *
 * Contract
 * - `addRequest`: a request under /api/v1 of a real tenant (never a pseudo-tenant) adds one cell
 *   with rule TOTAL_REF (`*`): `admitted` or `refused`, and `units` (admitted only: the highest
 *   cost among its rules, 1 when none applied); and one cell per rule result: `admitted` when the
 *   request was admitted, `refused` when that enforce rule refused it, `units` the rule's cost when
 *   the request was admitted (what the rule's counter was charged; a count-by-response give-back is
 *   not subtracted).
 * - `addCheck`: a check or ShouldRateLimit call adds its rule cells only (caller unknown: `""`).
 * - The caller is lib/monitoring/record/callerMember.ts's member (`""` when none), the tier `""`
 *   when none.
 * - Bounded by `maxCells`: a new cell past it is not kept and `add*` answers false (the caller
 *   counts it as overflow).
 * - `field`/`parseField` name a cell in the flush's Redis hash (monitoringKeys.ts `usage`):
 *   tab-separated parts, none of which can hold a tab.
 */
import type { Decision } from "../../limiter/types";
import { HOUR_MS, TOTAL_REF } from "./monitoringKeys";

export interface UsageCell {
  tenantId: string;
  /** Epoch hour. */
  hour: number;
  caller: string;
  rule: string;
  tier: string;
  admitted: number;
  refused: number;
  units: number;
}

export type UsageCounter = "a" | "r" | "u";

const NO_TAB = /^[^\t\n]*$/;

export function usageField(
  cell: Pick<UsageCell, "tenantId" | "hour" | "caller" | "rule" | "tier">,
  counter: UsageCounter,
) {
  return `${cell.tenantId}\t${cell.hour}\t${cell.caller}\t${cell.rule}\t${cell.tier}\t${counter}`;
}

/** A hash field back into its cell's identity and counter; null for a field of another shape. */
export function parseUsageField(
  field: string,
): { tenantId: string; hour: number; caller: string; rule: string; tier: string; counter: UsageCounter } | null {
  const parts = field.split("\t");
  if (parts.length !== 6) return null;
  const [tenantId, hourText, caller, rule, tier, counter] = parts as [string, string, string, string, string, string];
  const hour = Number(hourText);
  if (!Number.isSafeInteger(hour) || (counter !== "a" && counter !== "r" && counter !== "u")) return null;
  return { tenantId, hour, caller, rule, tier, counter };
}

export class UsageTally {
  readonly cells = new Map<string, UsageCell>();

  constructor(private readonly maxCells: number) {}

  get size(): number {
    return this.cells.size;
  }

  addRequest(
    tenantId: string,
    caller: string,
    tier: string | undefined,
    decision: Decision | null,
    nowMs: number,
  ): boolean {
    const hour = Math.floor(nowMs / HOUR_MS);
    const admitted = decision === null || decision.allowed;
    const t = tier !== undefined && NO_TAB.test(tier) ? tier : "";
    let kept = true;
    const total = this.cell(tenantId, hour, caller, TOTAL_REF, t);
    if (total) {
      if (admitted) {
        total.admitted++;
        let units = decision && decision.results.length > 0 ? 0 : 1;
        for (const r of decision?.results ?? []) units = Math.max(units, r.rule.cost);
        total.units += units;
      } else total.refused++;
    } else kept = false;
    if (decision) kept = this.addResults(tenantId, hour, caller, t, decision) && kept;
    return kept;
  }

  addCheck(tenantId: string, decision: Decision, nowMs: number): boolean {
    return this.addResults(tenantId, Math.floor(nowMs / HOUR_MS), "", "", decision);
  }

  private addResults(tenantId: string, hour: number, caller: string, tier: string, decision: Decision): boolean {
    let kept = true;
    for (const r of decision.results) {
      const cell = this.cell(tenantId, hour, caller, r.rule.ref, tier);
      if (!cell) {
        kept = false;
        continue;
      }
      if (decision.allowed) {
        cell.admitted++;
        cell.units += r.rule.cost;
      } else if (r.rule.mode === "enforce" && !r.allowed) cell.refused++;
    }
    return kept;
  }

  private cell(tenantId: string, hour: number, caller: string, rule: string, tier: string): UsageCell | undefined {
    const id = `${tenantId}\t${hour}\t${caller}\t${rule}\t${tier}`;
    let cell = this.cells.get(id);
    if (!cell) {
      if (this.cells.size >= this.maxCells || !NO_TAB.test(caller) || !NO_TAB.test(rule)) return undefined;
      cell = { tenantId, hour, caller, rule, tier, admitted: 0, refused: 0, units: 0 };
      this.cells.set(id, cell);
    }
    return cell;
  }
}
