/**
 * decideThen in Redis: two decisions in one script call, the second committing only if the first
 * did (decide.lua commit "2"), as the data plane's /api/v1/check makes the key's and the
 * identifier's: a refused first charges nothing of the second, a refused second leaves the first
 * charged, and requests batched together keep that pairing.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createLimiter } from "./decide";
import { RefusalCache } from "./refusalCache";

const redis = plainRedis();
const prefix = uniquePrefix("decidethen");
const limiter = createLimiter({ redis, prefix, timeoutMs: 2000, refusals: new RefusalCache() });
const T0 = 1_800_000_000_000;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const keyRule = limiterRule({ name: "key", limit: 2 });
const idRule = limiterRule({ name: "id", limit: 1, scope: "identifier" });

function pair(tenantId: string) {
  const key = { tenantId, keyId: "k" };
  const id = { tenantId, identifier: "user-1" };
  const left = async (nowMs: number) => [
    (await limiter.peek([keyRule], key, { nowMs })).results[0]!.remaining,
    (await limiter.peek([idRule], id, { nowMs })).results[0]!.remaining,
  ];
  return { key, id, left };
}

describe("decideThen", () => {
  it("charges both when both allow; a refused second leaves the first charged", async () => {
    const { key, id, left } = pair("dt1");
    const [first, second] = await limiter.decideThen([keyRule], key, { nowMs: T0 }, { rules: [idRule], subject: id });
    expect([first.allowed, second?.allowed]).toEqual([true, true]);
    const [again, refused] = await limiter.decideThen(
      [keyRule],
      key,
      { nowMs: T0 + 1 },
      { rules: [idRule], subject: id },
    );
    expect([again.allowed, refused?.allowed]).toEqual([true, false]);
    expect(await left(T0 + 2)).toEqual([0, 0]);
  });

  it("a refused first charges nothing of the second and returns no second decision", async () => {
    const { key, id, left } = pair("dt2");
    await limiter.decide([keyRule], key, { nowMs: T0 });
    await limiter.decide([keyRule], key, { nowMs: T0 + 1 });
    const [first, second] = await limiter.decideThen(
      [keyRule],
      key,
      { nowMs: T0 + 2 },
      { rules: [idRule], subject: id },
    );
    expect(first.allowed).toBe(false);
    expect(second).toBeUndefined();
    expect(await left(T0 + 3)).toEqual([0, 1]);
  });

  it("keeps each pair together when concurrent pairs share one script call", async () => {
    const { key, left } = pair("dt3");
    const ids = ["a", "b", "c"].map((identifier) => ({ tenantId: "dt3", identifier }));
    const answers = await Promise.all(
      ids.map((id, i) => limiter.decideThen([keyRule], key, { nowMs: T0 + i }, { rules: [idRule], subject: id })),
    );
    expect(answers.map(([first, second]) => [first.allowed, second?.allowed])).toEqual([
      [true, true],
      [true, true],
      [false, undefined],
    ]);
    expect(await left(T0 + 5)).toEqual([0, 1]);
    expect((await limiter.peek([idRule], ids[2]!, { nowMs: T0 + 5 })).results[0]!.remaining).toBe(1);
  });
});
