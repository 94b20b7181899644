/**
 * What the accuracy part computes from a replayed trace, pure and in O(requests):
 * - `differences`: how many decisions two algorithms disagree on, overall and per client class;
 * - `worstSpan`: the most requests one client had admitted within any window-length span
 *   (times t_first..t_last with t_last - t_first < window, the span sliding_log bounds by the
 *   limit), overall and per class;
 * - `admittedByClass`: admitted requests per class.
 * Decisions are bit sets: bit k of decisions[i] is set when algorithm k admitted request i.
 */
import { CLIENT_CLASSES, type ClientClass, type Trace } from "./trace";

export interface ClassCount {
  requests: number;
  differing: number;
  /** Of the differing: admitted by algorithm A only (the rest: by B only). */
  onlyA: number;
}

export interface Differences {
  requests: number;
  differing: number;
  byClass: Record<ClientClass, ClassCount>;
}

export interface WorstSpan {
  /** Admitted requests in the worst span of any client. */
  admitted: number;
  client: number;
  clientClass: ClientClass;
  /** Worst span's admitted count per class (0 for a class without clients). */
  byClass: Record<ClientClass, number>;
}

const perClass = <T>(make: () => T): Record<ClientClass, T> =>
  Object.fromEntries(CLIENT_CLASSES.map((c) => [c, make()])) as Record<ClientClass, T>;

export function differences(trace: Trace, decisions: Uint8Array, bitA: number, bitB: number): Differences {
  const byClass = perClass<ClassCount>(() => ({ requests: 0, differing: 0, onlyA: 0 }));
  let differing = 0;
  for (let i = 0; i < decisions.length; i++) {
    const counts = byClass[CLIENT_CLASSES[trace.clientClass[trace.client[i]!]!]!];
    counts.requests++;
    const d = decisions[i]!;
    const a = (d >> bitA) & 1;
    if (a !== ((d >> bitB) & 1)) {
      counts.differing++;
      counts.onlyA += a;
      differing++;
    }
  }
  return { requests: decisions.length, differing, byClass };
}

export function admittedByClass(trace: Trace, decisions: Uint8Array, bit: number): Record<ClientClass, number> {
  const admitted = perClass(() => 0);
  for (let i = 0; i < decisions.length; i++) {
    if ((decisions[i]! >> bit) & 1) admitted[CLIENT_CLASSES[trace.clientClass[trace.client[i]!]!]!]++;
  }
  return admitted;
}

/**
 * One pass over the trace in time order. Each client keeps a ring of its last `capacity` admitted
 * times; `capacity` must exceed any possible span count (e.g. 3 x limit), and `worstSpan` throws
 * if it does not, rather than under-report.
 */
export function worstSpan(
  trace: Trace,
  decisions: Uint8Array,
  bit: number,
  windowMs: number,
  capacity: number,
): WorstSpan {
  const clients = trace.clientClass.length;
  const ring = new Float64Array(clients * capacity);
  const head = new Uint32Array(clients); // index of the oldest admitted time still in the span
  const size = new Uint32Array(clients);
  const best = new Uint32Array(clients);
  for (let i = 0; i < decisions.length; i++) {
    if (!((decisions[i]! >> bit) & 1)) continue;
    const c = trace.client[i]!;
    const now = trace.atMs[i]!;
    const base = c * capacity;
    while (size[c]! > 0 && now - ring[base + head[c]!]! >= windowMs) {
      head[c] = (head[c]! + 1) % capacity;
      size[c]!--;
    }
    if (size[c] === capacity)
      throw new Error(`worstSpan: more than ${capacity} admitted in one span; raise the capacity`);
    ring[base + ((head[c]! + size[c]!) % capacity)] = now;
    size[c]!++;
    if (size[c]! > best[c]!) best[c] = size[c]!;
  }
  const byClass = perClass(() => 0);
  let worst = 0;
  for (let c = 0; c < clients; c++) {
    const cls = CLIENT_CLASSES[trace.clientClass[c]!]!;
    if (best[c]! > byClass[cls]) byClass[cls] = best[c]!;
    if (best[c]! > best[worst]!) worst = c;
  }
  return {
    admitted: best[worst] ?? 0,
    client: worst,
    clientClass: CLIENT_CLASSES[trace.clientClass[worst] ?? 0]!,
    byClass,
  };
}
