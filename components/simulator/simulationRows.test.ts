import { describe, expect, it } from "vitest";
import { simulationRows } from "./simulationRows";

const outcome = (perMinute: { minuteMs: number; allowed: number; refused: number }[]) => ({
  allowed: 0,
  refused: 0,
  clientsAffected: 0,
  perMinute,
});

describe("simulationRows", () => {
  it("puts the current and the candidate counts of each minute on one row, in time order", () => {
    const rows = simulationRows({
      current: outcome([
        { minuteMs: 60_000, allowed: 5, refused: 0 },
        { minuteMs: 0, allowed: 3, refused: 1 },
      ]),
      candidate: outcome([
        { minuteMs: 0, allowed: 2, refused: 2 },
        { minuteMs: 60_000, allowed: 1, refused: 4 },
      ]),
    });
    expect(rows).toEqual([
      { minuteMs: 0, currentAllowed: 3, currentRefused: 1, candidateAllowed: 2, candidateRefused: 2 },
      { minuteMs: 60_000, currentAllowed: 5, currentRefused: 0, candidateAllowed: 1, candidateRefused: 4 },
    ]);
  });

  it("counts a minute missing on one side as zero there instead of shifting the series", () => {
    const rows = simulationRows({
      current: outcome([{ minuteMs: 0, allowed: 1, refused: 0 }]),
      candidate: outcome([{ minuteMs: 60_000, allowed: 0, refused: 7 }]),
    });
    expect(rows).toEqual([
      { minuteMs: 0, currentAllowed: 1, currentRefused: 0, candidateAllowed: 0, candidateRefused: 0 },
      { minuteMs: 60_000, currentAllowed: 0, currentRefused: 0, candidateAllowed: 0, candidateRefused: 7 },
    ]);
  });
});
