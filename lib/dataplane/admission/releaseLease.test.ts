import { describe, expect, it } from "vitest";
import type { Limiter } from "../../limiter/decide";
import type { Lease } from "../../limiter/types";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";
import { limiterRule } from "@/test/support/rules";
import { releaseLease } from "./applyOutcome";

const rule = limiterRule({ name: "inflight", algorithm: "concurrency", limit: 2 });
const lease: Lease = {
  id: "L1",
  keys: ["p:{t}cinflightKk", "p:{t}cotherT"],
  rules: [rule, { ...rule, name: "other", scope: "tenant" }],
};

/** Releases `lease` with a limiter answering `answer`; the counter increments by event. */
async function counted(answer: number | null): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const released: Lease[] = [];
  const limiter = { release: async (l: Lease) => (released.push(l), answer) } as unknown as Limiter;
  const metrics = {
    concurrencyLeases: {
      inc: ({ event }: { event: string }, n: number) => void (counts[event] = (counts[event] ?? 0) + n),
    },
  } as unknown as SluiceMetrics;
  await releaseLease({ limiter, metrics }, lease);
  expect(released).toEqual([lease]);
  return counts;
}

describe("releaseLease", () => {
  it("counts the slots given back as released", async () => {
    expect(await counted(2)).toEqual({ released: 2 });
  });

  it("counts slots whose lease had expired before the release as expired", async () => {
    expect(await counted(1)).toEqual({ released: 1, expired: 1 });
    expect(await counted(0)).toEqual({ expired: 2 });
  });

  it("counts a release Redis could not take as unreleased (the leases will expire)", async () => {
    expect(await counted(null)).toEqual({ unreleased: 2 });
  });
});
