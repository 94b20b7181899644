/** The totals of a simulation, current rules against the candidate, one row each. */
import { formatCount, formatPct } from "@/components/format/numberFormat";
import type { SideFigures, SimulationResult } from "@/lib/control/simulator/simulationResult";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

function refusedPct(outcome: SideFigures): number | null {
  const total = outcome.allowed + outcome.refused;
  return total === 0 ? null : (outcome.refused / total) * 100;
}

function TotalsRow({ label, outcome }: { label: string; outcome: SideFigures }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="num">{formatCount(outcome.allowed)}</td>
      <td className="num">{formatCount(outcome.refused)}</td>
      <td className="num">{formatPct(refusedPct(outcome))}</td>
      <td className="num">{formatCount(outcome.clientsAffected)}</td>
    </tr>
  );
}

export function SimulationTotals({ result }: { result: SimulationResult }) {
  return (
    <ScrollRegion label="Totals">
      <table>
        <caption className="visually-hidden">Totals</caption>
        <thead>
          <tr>
            <th scope="col">Rules</th>
            <th scope="col" className="num">
              Allowed
            </th>
            <th scope="col" className="num">
              Refused
            </th>
            <th scope="col" className="num">
              Refused %
            </th>
            <th
              scope="col"
              className="num"
              title="Clients (API keys, or IPs without a key) with at least one refused request"
            >
              Clients affected
            </th>
          </tr>
        </thead>
        <tbody>
          <TotalsRow label="Current" outcome={result.current} />
          <TotalsRow label="Candidate" outcome={result.candidate} />
        </tbody>
      </table>
    </ScrollRegion>
  );
}
