import { describe, expect, it } from "vitest";
import { BATCH, lookupLoop } from "./lookupLoop";

const settings = { warmupMs: 1, durationMs: 5 };

describe("lookupLoop", () => {
  it("calls the inputs in turn in whole batches and counts the calls that answered true", async () => {
    const seen: number[] = [];
    const m = await lookupLoop(settings, 3, (i) => {
      seen.push(i);
      return i === 0;
    });
    expect(m.lookups % BATCH).toBe(0);
    expect(m.lookups).toBeGreaterThan(0);
    expect(seen.slice(0, 6)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(Math.abs(m.matched - m.lookups / 3)).toBeLessThanOrEqual(1);
  });

  it("awaits an asynchronous lookup before the next call", async () => {
    let running = 0;
    let overlapped = false;
    const m = await lookupLoop(settings, 2, async () => {
      if (running++ > 0) overlapped = true;
      await Promise.resolve();
      running--;
      return true;
    });
    expect(overlapped).toBe(false);
    expect(m.matched).toBe(m.lookups);
  });
});
