/**
 * One bench row from an autocannon HTTP run: throughput, p50/p99, the share refused (429) and the
 * errors (transport errors, timeouts and non-2xx answers). Node and Redis CPU are not sampled in
 * HTTP parts (the server is another process), so those columns are NaN. `latency`: p50/p99 to the µs
 * from the run's responses (./httpLatency.ts) instead of autocannon's whole-ms histogram.
 */
import type autocannon from "autocannon";
import { round } from "./measure";
import type { RunRow } from "./types";

export function httpLoadRow(
  subject: string,
  name: string,
  concurrency: number,
  result: autocannon.Result,
  note: string,
  latency?: { p50Ms: number; p99Ms: number },
): RunRow {
  return {
    subject,
    case: name,
    concurrency,
    opsPerSec: Math.round(result.requests.average),
    p50Ms: latency?.p50Ms ?? result.latency.p50,
    p99Ms: latency?.p99Ms ?? result.latency.p99,
    refusedPct:
      result.requests.total > 0
        ? round((100 * (result.statusCodeStats?.["429"]?.count ?? 0)) / result.requests.total, 2)
        : 0,
    errors: result.errors + result.timeouts + result.non2xx,
    nodeCpuUsPerOp: Number.NaN,
    redisCpuUsPerOp: Number.NaN,
    otherCpuPct: Number.NaN,
    note,
  };
}
