import { describe, expect, it } from "vitest";
import { grpcGoals } from "./grpcGoals";
import { identityGoals } from "./identityGoals";
import { runRow } from "./reportFixture";

const identity = (name: string, cpu: number, more = {}) =>
  runRow({ subject: "identity", case: name, concurrency: 100, nodeCpuUsPerOp: cpu, ...more });

describe("identityGoals", () => {
  it("compares the callers by server CPU per request, and host lookup by time per lookup", () => {
    const goals = identityGoals([
      identity("bare-proxy", 40, { opsPerSec: 10_000 }),
      identity("sluice-gateway", 200),
      identity("host-key", 190, { opsPerSec: 5_000 }),
      identity("host-jwt-es256", 290),
      identity("host-jwt-rs256", 285),
      identity("host-anonymous", 210),
      identity("host-lookup-10-hosts", 1, { concurrency: 1, p50Ms: 0.0001 }),
      identity("host-lookup-10000-hosts", 1, { concurrency: 1, p50Ms: 0.00012 }),
    ]);
    expect(goals.map((g) => [g.value, g.direction, g.target, g.met])).toEqual([
      [1.53, "at most", 1.5, false],
      [1.5, "at most", 1.5, true],
      [0.95, "at most", 1, true],
      [1.05, "at most", 1, false],
      [0.5, "at least", 0.6, false],
      [1.2, "at most", 2, true],
    ]);
  });

  it("sets no goal for a row that was not measured or has no CPU figure", () => {
    expect(identityGoals([identity("host-key", Number.NaN), identity("host-jwt-es256", 100)])).toEqual([]);
  });
});

describe("grpcGoals", () => {
  it("divides Sluice's calls/s by the ceiling's at 256 in flight only, per descriptor count", () => {
    const grpc = (name: string, concurrency: number, opsPerSec: number) =>
      runRow({ subject: "grpc", case: name, concurrency, opsPerSec });
    const goals = grpcGoals([
      grpc("ceiling-1-descriptor", 64, 1_000),
      grpc("sluice-1-descriptor", 64, 100),
      grpc("ceiling-1-descriptor", 256, 10_000),
      grpc("sluice-1-descriptor", 256, 7_000),
      grpc("ceiling-3-descriptors", 256, 8_000),
      grpc("sluice-3-descriptors", 256, 4_000),
    ]);
    expect(goals.map((g) => [g.goal.includes("1 descriptor"), g.value, g.met])).toEqual([
      [true, 0.7, true],
      [false, 0.5, false],
    ]);
  });
});
