/**
 * An open-loop load at a fixed rate, for the data-plane bench's half-load rows (dataplaneCases.ts).
 *
 * Not autocannon's `overallRate`, whose tail is neither the half-load one nor the server's:
 * - it gives each connection a quota per second, which the connection sends back to back (one
 *   request as soon as the previous answer is in) and then idles until the next second: every
 *   second starts at full load, so "half load" was full load for half of each second;
 * - its coordinated-omission correction takes `Math.ceil(1 / rate)` as the expected interval: 1 ms
 *   for any per-connection rate above 1/s, so an answer of L ms was recorded as L samples (L, L-1,
 *   ... 1 ms) and the slowest answers filled the p99 (at 2,000 req/s on the 2-core machine: gateway
 *   p99 95 ms, bare proxy 18 to 22 ms; with `ignoreCoordinatedOmission` 26 and 25 ms).
 * Here request i is due at start + i / rate, sent then on a free connection of a keep-alive pool
 * (when all are busy it waits, and the wait counts), and its latency runs from its due time to the
 * end of the answer's body. Latencies are kept exactly (fractions of a ms), not in whole ms.
 */
import { Pool } from "undici";
import { percentile, round } from "../measure";
import { median } from "../rounds";

export interface FixedRateLoad {
  url: string;
  headers?: Record<string, string>;
  /** Requests per second, over all connections. */
  rate: number;
  seconds: number;
  connections: number;
}

export interface FixedRateResult {
  /** Answers per second over the window (the last answer's end). */
  rps: number;
  total: number;
  /** Transport errors and non-2xx answers. */
  errors: number;
  p50Ms: number;
  p99Ms: number;
}

export async function fixedRateLoad(l: FixedRateLoad): Promise<FixedRateResult> {
  const target = new URL(l.url);
  const pool = new Pool(target.origin, { connections: l.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const path = target.pathname + target.search;
  const total = Math.max(1, Math.round(l.rate * l.seconds));
  const latencies = new Float64Array(total);
  let sent = 0;
  let answered = 0;
  let errors = 0;
  const start = performance.now();
  let end = start;
  try {
    await new Promise<void>((resolve) => {
      const one = (i: number) => {
        const due = start + (i * 1000) / l.rate;
        const settle = (ok: boolean) => {
          end = performance.now();
          latencies[i] = end - due;
          if (!ok) errors += 1;
          if (++answered === total) resolve();
        };
        pool.request({ path, method: "GET", headers: l.headers }).then(
          async (answer) => {
            await answer.body.dump();
            settle(answer.statusCode < 300);
          },
          () => settle(false),
        );
      };
      // Sends every request whose time has come; timers fire about every ms, so up to a ms late, counted.
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - start) * l.rate) / 1000) + 1);
        while (sent < due) one(sent++);
        if (sent < total) setTimeout(tick, 1);
      };
      tick();
    });
  } finally {
    await pool.close();
  }
  const sorted = latencies.sort();
  return {
    rps: Math.round((total * 1000) / (end - start)),
    total,
    errors,
    p50Ms: round(percentile(sorted, 0.5), 2),
    p99Ms: round(percentile(sorted, 0.99), 2),
  };
}

/**
 * The loads alternated window by window, `rounds` times, after one warm-up window each. On a shared
 * machine the neighbours' load swings from one window to the next, so two rows measured one after
 * the other can differ more by that than by the servers (the same build's half-load p99 read 5 ms
 * and 266 ms in two runs). Each load's result: the median of its windows' p50 and of their p99
 * (a window the machine stalled is left out), its mean rate, its summed requests and errors.
 */
export async function alternatedFixedRate(
  loads: FixedRateLoad[],
  rounds: number,
  warmupSeconds: number,
): Promise<FixedRateResult[]> {
  for (const l of loads) await fixedRateLoad({ ...l, seconds: warmupSeconds });
  const windows: FixedRateResult[][] = loads.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (const [i, l] of loads.entries()) windows[i]!.push(await fixedRateLoad(l));
  return windows.map((runs) => ({
    rps: Math.round(runs.reduce((sum, r) => sum + r.rps, 0) / runs.length),
    total: runs.reduce((sum, r) => sum + r.total, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
  }));
}
