import { describe, expect, it } from "vitest";
import { bucketSeconds, partialBucket, undrawnPartial } from "./timeSeries";

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

describe("the partial last bucket is not drawn (issue 31: a spike to 100 % where the eye lands)", () => {
  const rows = [
    { t: 0, a: 10, b: 5 },
    { t: 60_000, a: 12, b: 4 },
    { t: 120_000, a: 1, b: 100 },
  ];
  const partial = partialBucket(
    rows.map((r) => r.t),
    60_000,
    125_000,
  );

  it("a line gets a gap in it", () => {
    expect(undrawnPartial(rows, partial, "gap")).toEqual([rows[0], rows[1], { t: 120_000, a: null, b: null }]);
  });

  it("a step area ends the last complete bucket at its end", () => {
    expect(undrawnPartial(rows, partial, "close")).toEqual([rows[0], rows[1], { t: 120_000, a: 12, b: 4 }]);
  });

  it("complete buckets are drawn as they are", () => {
    expect(undrawnPartial(rows, null, "gap")).toEqual(rows);
  });
});
