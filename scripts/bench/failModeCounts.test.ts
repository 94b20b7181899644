import { describe, expect, it } from "vitest";
import { difference, parseFailModeCounts, sum } from "./failModeCounts";

describe("parseFailModeCounts", () => {
  it("sums the counter's samples by mode and ignores every other line", () => {
    const text = [
      "# HELP sluice_fail_mode_activations_total Rules answered by their failMode",
      "# TYPE sluice_fail_mode_activations_total counter",
      'sluice_fail_mode_activations_total{mode="open"} 4',
      'sluice_fail_mode_activations_total{mode="closed"} 2',
      'sluice_decisions_total{outcome="allowed"} 900',
      'sluice_redis_errors_total{kind="timeout"} 3',
    ].join("\n");
    expect(parseFailModeCounts(text)).toEqual({ open: 4, closed: 2, local: 0, total: 6, redisErrors: { timeout: 3 } });
    expect(parseFailModeCounts("")).toEqual({ open: 0, closed: 0, local: 0, total: 0, redisErrors: {} });
  });

  it("differences per mode", () => {
    const after = { open: 5, closed: 1, local: 0, total: 6, redisErrors: { timeout: 2, down: 1 } };
    const before = { open: 4, closed: 0, local: 0, total: 4, redisErrors: { timeout: 2 } };
    expect(difference(after, before)).toEqual({ open: 1, closed: 1, local: 0, total: 2, redisErrors: { down: 1 } });
    expect(sum([before, after])).toEqual({
      open: 9,
      closed: 1,
      local: 0,
      total: 10,
      redisErrors: { timeout: 4, down: 1 },
    });
  });
});
