/**
 * What one simulation run found: the range replayed (and whether it was clipped to what is
 * recorded, or cut at the replay cap), then, unless nothing was recorded, the chart of both rule
 * sets, the totals and the newly refused clients.
 */
import { formatCount } from "@/components/format/numberFormat";
import { formatDateTime } from "@/components/format/dateFormat";
import { Empty } from "@/components/shell/PageState";
import { NewlyRefusedTable } from "./NewlyRefusedTable";
import { SimulationChart } from "./SimulationChart";
import { SimulationTotals } from "./SimulationTotals";
import type { SimulationResult } from "@/lib/control/simulator/simulationResult";

/** The API may align the range to whole minutes; only a bigger gap means "clipped". */
const CLIP_SLACK_MS = 60_000;

export interface SimulationRun {
  result: SimulationResult;
  requested: { fromMs: number; toMs: number };
}

function RecordedSince({ recordedFromMs }: { recordedFromMs: number | null }) {
  return recordedFromMs === null ? (
    <>Nothing is recorded for this tenant yet.</>
  ) : (
    <>The oldest request still recorded is from {formatDateTime(recordedFromMs)}.</>
  );
}

export function SimulationReport({ run }: { run: SimulationRun }) {
  const { result, requested } = run;
  if (result.requests === 0) {
    return (
      <Empty>
        Nothing recorded in this range: no request of this tenant to replay.{" "}
        <RecordedSince recordedFromMs={result.recordedFromMs} />
      </Empty>
    );
  }
  // The end moves only at the replay cap (said below); the start, when less was recorded.
  const clipped = result.fromMs > requested.fromMs + CLIP_SLACK_MS;
  return (
    <>
      <p className="hint" data-testid="simulation-summary">
        Replayed {formatCount(result.requests)} recorded requests from {formatDateTime(result.fromMs)} to{" "}
        {formatDateTime(result.toMs)}.
      </p>
      {clipped ? (
        <p className="notice notice-warn">
          The range was clipped to what is recorded. <RecordedSince recordedFromMs={result.recordedFromMs} />
        </p>
      ) : null}
      {result.truncated ? (
        <p className="notice notice-warn">
          The range held more requests than one simulation replays: only the first {formatCount(result.requests)} were
          replayed, up to {formatDateTime(result.toMs)}.
        </p>
      ) : null}
      {result.notSimulated?.length ? (
        <p className="notice notice-warn">
          Not simulated, left out of both replays (the recorded traffic does not hold what they need):{" "}
          {result.notSimulated.map((n) => `${n.rule}: ${n.reason}`).join("; ")}.
        </p>
      ) : null}
      <SimulationChart result={result} />
      <h3>Totals</h3>
      <SimulationTotals result={result} />
      <h3>Newly refused clients</h3>
      <p className="hint">
        Clients the candidate would refuse more often than the current rules, most affected first (at most 100).
      </p>
      <NewlyRefusedTable clients={result.newlyRefused} />
    </>
  );
}
