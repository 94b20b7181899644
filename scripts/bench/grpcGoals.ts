/**
 * (j) Envoy's rate limit service (issue 30, grpcCases.ts): Sluice's ShouldRateLimit calls per second
 * at 256 in flight at least 0.6 x a bare @grpc/grpc-js server making the same Redis call, with one
 * and with three descriptors.
 */
import { ratioGoal } from "./goalShapes";
import type { Goal, RunRow } from "./types";

export const GRPC_GOAL_IN_FLIGHT = 256;

export function grpcGoals(rows: RunRow[]): Goal[] {
  const ops = (name: string) =>
    rows.find((r) => r.subject === "grpc" && r.case === name && r.concurrency === GRPC_GOAL_IN_FLIGHT)?.opsPerSec;
  return ["1-descriptor", "3-descriptors"].flatMap((what) =>
    ratioGoal(
      `gRPC ShouldRateLimit, ${what.replace("-", " ")} @${GRPC_GOAL_IN_FLIGHT} in flight: Sluice / bare grpc-js + Redis ceiling, calls/s`,
      ops(`sluice-${what}`),
      ops(`ceiling-${what}`),
      0.6,
    ),
  );
}
