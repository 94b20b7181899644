import { describe, expect, it } from "vitest";
import { bucketSeconds, partialBucket } from "./timeSeries";

describe("the partial last bucket", () => {
  it("is the last bucket while it is still filling", () => {
    expect(partialBucket([0, 60_000, 120_000], 60_000, 150_000)).toEqual({
      t: 120_000,
      elapsedMs: 30_000,
      stepMs: 60_000,
    });
  });
  it("is absent when the window ends on a bucket boundary, or holds no points", () => {
    expect(partialBucket([0, 60_000], 60_000, 120_000)).toBeNull();
    expect(partialBucket([], 60_000, 120_000)).toBeNull();
  });
  it("averages over the elapsed part only, so a partial bucket does not read as a drop", () => {
    expect(bucketSeconds(120_000, 60_000, 150_000)).toBe(30);
    expect(bucketSeconds(0, 60_000, 150_000)).toBe(60);
  });
});
