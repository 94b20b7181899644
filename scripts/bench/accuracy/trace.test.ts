import { describe, expect, it } from "vitest";
import { DEFAULT_TRACE_SPEC, generateTrace, type TraceSpec } from "./trace";

const small: TraceSpec = {
  ...DEFAULT_TRACE_SPEC,
  durationMs: 5 * 60_000,
  limit: 20,
  steady: { clients: 30, minShare: 0.05, maxShare: 0.5 },
  bursty: { ...DEFAULT_TRACE_SPEC.bursty, clients: 5 },
  abusive: { clients: 2, minFactor: 5, maxFactor: 10 },
};

const perClient = (clients: Uint32Array, client: number) => clients.filter((c) => c === client).length;

describe("generateTrace", () => {
  it("gives the same trace, request for request, for the same seed", () => {
    const a = generateTrace(small);
    const b = generateTrace(small);
    expect(a.atMs.length).toBeGreaterThan(1000);
    expect(Array.from(b.atMs)).toEqual(Array.from(a.atMs));
    expect(Array.from(b.client)).toEqual(Array.from(a.client));
  });

  it("gives another trace for another seed", () => {
    const a = generateTrace(small);
    const b = generateTrace({ ...small, seed: small.seed + 1 });
    expect(Array.from(b.atMs.slice(0, 50))).not.toEqual(Array.from(a.atMs.slice(0, 50)));
  });

  it("is sorted by time, in whole milliseconds within the trace's span", () => {
    const { atMs } = generateTrace(small);
    for (let i = 1; i < atMs.length; i++) expect(atMs[i]!).toBeGreaterThanOrEqual(atMs[i - 1]!);
    expect(atMs.every((t) => Number.isInteger(t) && t >= small.startMs && t < small.startMs + small.durationMs)).toBe(
      true,
    );
  });

  it("has the classes in order, and abusive clients far above the limit while steady ones stay well below it", () => {
    const trace = generateTrace(small);
    expect(Array.from(trace.clientClass)).toEqual([...Array<number>(30).fill(0), ...Array<number>(5).fill(1), 2, 2]);
    const windows = small.durationMs / small.windowMs;
    for (let c = 0; c < 30; c++) expect(perClient(trace.client, c) / windows).toBeLessThan(small.limit * 0.75);
    for (const c of [35, 36]) expect(perClient(trace.client, c) / windows).toBeGreaterThan(small.limit * 3);
  });

  it("by default has at least a million requests from thousands of clients", { timeout: 60_000 }, () => {
    const trace = generateTrace();
    expect(trace.atMs.length).toBeGreaterThanOrEqual(1_000_000);
    expect(trace.clientClass.length).toBeGreaterThanOrEqual(2000);
  });
});
