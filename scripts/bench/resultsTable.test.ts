import { describe, expect, it } from "vitest";
import { benchReport } from "./reportFixture";
import { markdownTable } from "./markdownTable";
import { renderResultsTable } from "./resultsTable";
import type { SustainedReport } from "./types";

describe("markdownTable", () => {
  it("escapes pipes, formats numbers and shows NaN as n/a", () => {
    expect(
      markdownTable(
        ["a", "b"],
        [
          ["x | y", 1234.5],
          ["z", Number.NaN],
        ],
      ),
    ).toBe("| a | b |\n| --- | --- |\n| x \\| y | 1,234.5 |\n| z | n/a |");
  });
});

describe("renderResultsTable", () => {
  const sustained: SustainedReport = {
    seconds: 60,
    connectionsPerInstance: 50,
    rssGrowthBoundPct: 10,
    instances: [
      {
        name: "instance 1",
        maxReqPerSec: 400,
        targetReqPerSec: 320,
        achievedReqPerSec: 319.5,
        requests: 19_170,
        p50Ms: 12,
        p99Ms: 80,
        non2xx: 0,
        errors: 0,
        timeouts: 0,
        rssFirstMiB: 200,
        rssLastMiB: 204,
        rssGrowthPct: 2,
        rssFloorFirstMiB: 190,
        rssFloorLastMiB: 191,
        rssSamplesMiB: [],
      },
    ],
  };
  const report = benchReport({
    sustained,
    goals: [
      {
        goal: "bytes per client, fixed_window (used_memory delta)",
        value: 138,
        target: 150,
        direction: "at most",
        met: true,
      },
      { goal: "3-rule decide", value: 0.84, target: 1, met: false },
    ],
  });
  const text = renderResultsTable(report);

  it("names the machine it ran on", () => {
    expect(text).toContain("| CPU | Test CPU, 2 cores |");
    expect(text).toContain("| Postgres | 16.4 |");
    expect(text).toContain("| Redis | 7.0.15 |");
    expect(text).toContain("| Node | v20.20.0 |");
    expect(text).toContain(
      "| Load average at the start (1, 5, 15 min) | 0.5, 0.25, 0.1 (other processes share the 2 cores) |",
    );
  });

  it("lists every goal as met or missed, with its direction", () => {
    expect(text).toContain("| bytes per client, fixed_window (used_memory delta) | 138 | at most 150 | met |");
    expect(text).toContain("| 3-rule decide | 0.84 | at least 1 | **missed** |");
  });

  it("lists every case and leaves out the sections without figures", () => {
    expect(text).toContain("| limiter | sluice | decide-1rule-token_bucket | 256 | 60,000 |");
    expect(text).toContain("| http | sluice-http | echo-protected | 100 | 300 |");
    expect(text).toContain(
      "| instance 1 | 400 | 320 | 319.5 | 19,170 | 12 | 80 | 0 | 0 | 0 | not recorded | 200 | 204 | 2 | 190 → 191 |",
    );
    expect(text).not.toContain("## Accuracy");
    expect(text).not.toContain("## Exactness under load");
  });
});
