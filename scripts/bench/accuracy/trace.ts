/**
 * The accuracy trace: a seeded synthetic request log of thousands of clients of three classes,
 * generated in memory (typed arrays; about 1.2 million requests by default) and sorted by time.
 * - steady: Poisson arrivals at 1 % to 25 % of the limit, always well within it;
 * - bursty: a Poisson base at 5 % of the limit plus a few bursts of 0.5 to 2 x the limit, each
 *   spread over 1 to 20 s, so they sometimes reach and pass the limit;
 * - abusive: Poisson arrivals at 3 to 20 x the limit, refused most of the time.
 * Times are whole milliseconds from `startMs`, which is deliberately not aligned to a window.
 * Pure and deterministic: the same spec gives the same trace, request for request.
 */
import { seededRandom, type SeededRandom } from "./seededRandom";

export const CLIENT_CLASSES = ["steady", "bursty", "abusive"] as const;
export type ClientClass = (typeof CLIENT_CLASSES)[number];

export interface TraceSpec {
  seed: number;
  startMs: number;
  durationMs: number;
  limit: number;
  windowMs: number;
  steady: { clients: number; minShare: number; maxShare: number };
  bursty: {
    clients: number;
    baseShare: number;
    burstsPerClient: number;
    minBurstShare: number;
    maxBurstShare: number;
    minBurstMs: number;
    maxBurstMs: number;
  };
  abusive: { clients: number; minFactor: number; maxFactor: number };
}

export const DEFAULT_TRACE_SPEC: TraceSpec = {
  seed: 20261123,
  startMs: 1_800_000_012_345,
  durationMs: 20 * 60_000,
  limit: 100,
  windowMs: 60_000,
  steady: { clients: 3000, minShare: 0.01, maxShare: 0.25 },
  bursty: {
    clients: 300,
    baseShare: 0.05,
    burstsPerClient: 5,
    minBurstShare: 0.5,
    maxBurstShare: 2,
    minBurstMs: 1000,
    maxBurstMs: 20_000,
  },
  abusive: { clients: 8, minFactor: 3, maxFactor: 20 },
};

/**
 * A realistic class mix, like the traffic behind Cloudflare's published figure (a small share of
 * clients over their limit): about 1 % of the clients are abusive (1.5 to 10 x the limit), bursty
 * clients burst to at most 0.8 x the limit on top of their base, the rest are steady. The default
 * spec above is the stress mix: 15 % of its requests come from clients far over their limit.
 */
export const REALISTIC_TRACE_SPEC: TraceSpec = {
  seed: 20261124,
  startMs: 1_800_000_012_345,
  durationMs: 20 * 60_000,
  limit: 100,
  windowMs: 60_000,
  steady: { clients: 3000, minShare: 0.01, maxShare: 0.25 },
  bursty: {
    clients: 270,
    baseShare: 0.05,
    burstsPerClient: 5,
    minBurstShare: 0.2,
    maxBurstShare: 0.8,
    minBurstMs: 1000,
    maxBurstMs: 20_000,
  },
  abusive: { clients: 33, minFactor: 1.5, maxFactor: 10 },
};

export interface Trace {
  spec: TraceSpec;
  /** Request i happens at atMs[i] (epoch ms, non-decreasing) from client[i]. */
  atMs: Float64Array;
  client: Uint32Array;
  /** Per client: its index in CLIENT_CLASSES. */
  clientClass: Uint8Array;
}

/** Poisson arrivals at `perWindow` requests per window over [0, duration), as offsets in ms. */
function poisson(random: SeededRandom, perWindow: number, spec: TraceSpec, out: number[]): void {
  const rate = perWindow / spec.windowMs;
  for (let t = random.exponential(rate); t < spec.durationMs; t += random.exponential(rate)) out.push(Math.floor(t));
}

function burstyArrivals(random: SeededRandom, spec: TraceSpec, out: number[]): void {
  const b = spec.bursty;
  poisson(random, b.baseShare * spec.limit, spec, out);
  const burstRate = b.burstsPerClient / spec.durationMs;
  for (let start = random.exponential(burstRate); start < spec.durationMs; start += random.exponential(burstRate)) {
    const size = random.integer(Math.round(b.minBurstShare * spec.limit), Math.round(b.maxBurstShare * spec.limit));
    const length = random.between(b.minBurstMs, b.maxBurstMs);
    for (let k = 0; k < size; k++) {
      const t = Math.floor(start + random.next() * length);
      if (t < spec.durationMs) out.push(t);
    }
  }
}

export function generateTrace(spec: TraceSpec = DEFAULT_TRACE_SPEC): Trace {
  const random = seededRandom(spec.seed);
  const classes = [
    ...Array<number>(spec.steady.clients).fill(0),
    ...Array<number>(spec.bursty.clients).fill(1),
    ...Array<number>(spec.abusive.clients).fill(2),
  ];
  const times: number[] = [];
  const owners: number[] = [];
  const arrivals: number[] = [];
  classes.forEach((cls, client) => {
    arrivals.length = 0;
    if (cls === 0)
      poisson(random, random.between(spec.steady.minShare, spec.steady.maxShare) * spec.limit, spec, arrivals);
    else if (cls === 1) burstyArrivals(random, spec, arrivals);
    else poisson(random, random.between(spec.abusive.minFactor, spec.abusive.maxFactor) * spec.limit, spec, arrivals);
    for (const t of arrivals) {
      times.push(t);
      owners.push(client);
    }
  });
  // Stable by time: requests of one millisecond keep their generation order.
  const order = Uint32Array.from(times.keys()).sort((x, y) => times[x]! - times[y]! || x - y);
  const atMs = new Float64Array(order.length);
  const client = new Uint32Array(order.length);
  order.forEach((from, i) => {
    atMs[i] = spec.startMs + times[from]!;
    client[i] = owners[from]!;
  });
  return { spec, atMs, client, clientClass: Uint8Array.from(classes) };
}
