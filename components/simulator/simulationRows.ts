/**
 * The chart rows of a simulation: one per minute, the current and the candidate counts side by
 * side. Both series cover the same minutes (the API fills zeros); a minute missing from one side
 * counts as zero there, so a short answer never shifts one series against the other.
 */
import type { SimulationResult } from "@/lib/control/simulator/simulationResult";

export interface SimulationRow {
  minuteMs: number;
  currentAllowed: number;
  currentRefused: number;
  candidateAllowed: number;
  candidateRefused: number;
}

export function simulationRows(result: Pick<SimulationResult, "current" | "candidate">): SimulationRow[] {
  const rows = new Map<number, SimulationRow>();
  const row = (minuteMs: number) => {
    let found = rows.get(minuteMs);
    if (!found) {
      found = { minuteMs, currentAllowed: 0, currentRefused: 0, candidateAllowed: 0, candidateRefused: 0 };
      rows.set(minuteMs, found);
    }
    return found;
  };
  for (const m of result.current.perMinute)
    Object.assign(row(m.minuteMs), { currentAllowed: m.allowed, currentRefused: m.refused });
  for (const m of result.candidate.perMinute)
    Object.assign(row(m.minuteMs), { candidateAllowed: m.allowed, candidateRefused: m.refused });
  return [...rows.values()].sort((a, b) => a.minuteMs - b.minuteMs);
}
