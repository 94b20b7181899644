import { describe, expect, it } from "vitest";
import { runRow } from "./reportFixture";
import { usageGoals } from "./usageGoals";

const query = (name: string, p50Ms: number, keys: number) =>
  runRow({ subject: "usage-query", case: name, concurrency: 1, p50Ms, note: `by day, over ${keys} keys' month` });

describe("usageGoals", () => {
  it("holds the one-key query to 100 ms and the tenant-wide one to 1 s, naming the keys run", () => {
    const goals = usageGoals([query("31d-one-key", 12.5, 100000), query("31d-tenant-wide", 1500, 100000)]);
    expect(goals.map((g) => [g.goal, g.value, g.direction, g.target, g.met])).toEqual([
      ["usage API: 31-day query for one key, p50 ms (100000 keys)", 12.5, "at most", 100, true],
      ["usage API: 31-day tenant-wide query by key, p50 ms (100000 keys)", 1500, "at most", 1000, false],
    ]);
  });

  it("has no goal when the usage part did not run", () => {
    expect(usageGoals([runRow({ subject: "identity", case: "host-key", concurrency: 100 })])).toEqual([]);
  });
});
