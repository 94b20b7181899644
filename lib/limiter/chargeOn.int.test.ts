/**
 * Count by response (rule field chargeOn) in Redis: a chargeOn rule is reserved at admission like
 * any rule (so requests in flight can never pass its limit, however many run at once), and
 * `giveBack` (lua/give_back.lua) undoes a reservation into the window it was made in, or not at all.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createLimiter } from "./decide";
import { RefusalCache } from "./refusalCache";
import { ALGORITHMS, type Decision, type LimiterRule } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("chargeon");
const refusals = new RefusalCache();
const limiter = createLimiter({ redis, prefix, timeoutMs: 2000, refusals });
const T0 = 1_800_000_000_000;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const remaining = (d: Decision) => Object.fromEntries(d.results.map((r) => [r.rule.name, r.remaining]));

describe.each(ALGORITHMS)("a %s rule counted by response", (algorithm) => {
  const rule = (name: string, extra: Partial<LimiterRule> = {}) =>
    limiterRule({ name, algorithm, limit: 3, burst: 3, windowMs: 60_000, chargeOn: ["4xx"], ...extra });

  it("admits exactly its limit of 40 requests decided in parallel: the cost is reserved at admission", async () => {
    const stuffing = rule("parallel");
    const subject = { tenantId: `par-${algorithm}`, keyId: "k" };
    const decisions = await Promise.all(
      Array.from({ length: 40 }, () => limiter.decide([stuffing], subject, { nowMs: T0 })),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
  });

  it("gives a reservation back when asked: the unit is free again, the other rules keep theirs", async () => {
    const plain = limiterRule({ name: "plain", algorithm, limit: 10, burst: 10 });
    const stuffing = rule("giveback");
    const subject = { tenantId: `gb-${algorithm}`, keyId: "k" };
    const reservations: Decision[] = [];
    for (let i = 0; i < 3; i++) reservations.push(await limiter.decide([plain, stuffing], subject, { nowMs: T0 + i }));
    expect(reservations.every((d) => d.allowed)).toBe(true);
    expect((await limiter.decide([plain, stuffing], subject, { nowMs: T0 + 3 })).allowed).toBe(false);

    expect(await limiter.giveBack(reservations[1]!, [stuffing], subject, { nowMs: T0 + 4 })).toBe(1);
    expect(remaining(await limiter.peek([plain, stuffing], subject, { nowMs: T0 + 5 }))).toEqual({
      plain: 7,
      giveback: 1,
    });
    expect((await limiter.decide([plain, stuffing], subject, { nowMs: T0 + 6 })).allowed).toBe(true);
    expect((await limiter.decide([plain, stuffing], subject, { nowMs: T0 + 7 })).allowed).toBe(false);
  });

  it("starts its penalty when it refuses at admission, as any refusal would", async () => {
    const stuffing = rule("pen", { limit: 1, burst: 1, windowMs: 1000, blockMs: 60_000 });
    const subject = { tenantId: `pen-${algorithm}`, keyId: "k" };
    expect((await limiter.decide([stuffing], subject, { nowMs: T0 })).allowed).toBe(true);
    expect(await limiter.decide([stuffing], subject, { nowMs: T0 + 1 })).toMatchObject({
      allowed: false,
      retryAfterMs: 60_000,
    });
    const later = await limiter.decide([stuffing], subject, { nowMs: T0 + 30_000 });
    expect(later.results[0]).toMatchObject({ allowed: false, penalized: true, retryAfterMs: 30_001 });
  });
});

describe("a give-back after the reservation's window", () => {
  const subjectOf = (tenantId: string) => ({ tenantId, keyId: "k" });

  it("fixed_window: nothing is given back once the window rolled over (the new window keeps its count)", async () => {
    const stuffing = limiterRule({ name: "fw", limit: 3, windowMs: 1000, chargeOn: ["4xx"] });
    const subject = subjectOf("roll-fw");
    const start = Math.floor(T0 / 1000) * 1000;
    const old = await limiter.decide([stuffing], subject, { nowMs: start + 900 });
    for (let i = 0; i < 3; i++)
      expect((await limiter.decide([stuffing], subject, { nowMs: start + 1000 })).allowed).toBe(true);
    expect(await limiter.giveBack(old, [stuffing], subject, { nowMs: start + 1001 })).toBe(0);
    expect((await limiter.decide([stuffing], subject, { nowMs: start + 1002 })).allowed).toBe(false);
  });

  it("sliding_window: given back into the window it was reserved in, now the previous one", async () => {
    const stuffing = limiterRule({
      name: "sw",
      algorithm: "sliding_window",
      limit: 2,
      windowMs: 1000,
      chargeOn: ["4xx"],
    });
    const subject = subjectOf("roll-sw");
    const start = Math.floor(T0 / 1000) * 1000;
    const first = await limiter.decide([stuffing], subject, { nowMs: start + 800 });
    await limiter.decide([stuffing], subject, { nowMs: start + 900 });
    // At +1100 the previous window (2) weighs 0.9 * 2 = 1.8: no room for one more.
    expect((await limiter.peek([stuffing], subject, { nowMs: start + 1100 })).allowed).toBe(false);
    expect(await limiter.giveBack(first, [stuffing], subject, { nowMs: start + 1100 })).toBe(1);
    expect((await limiter.decide([stuffing], subject, { nowMs: start + 1100 })).allowed).toBe(true);
  });

  it("token_bucket: nothing is given back once the TAT the reservation left has passed", async () => {
    const stuffing = limiterRule({
      name: "tb",
      algorithm: "token_bucket",
      limit: 1,
      burst: 2,
      windowMs: 1000,
      chargeOn: ["4xx"],
    });
    const subject = subjectOf("roll-tb");
    const reserved = await limiter.decide([stuffing], subject, { nowMs: T0 });
    expect(reserved.results[0]!.resetMs).toBe(1000);
    // The bucket was full again at T0 + 1000; a later request does not bring the reserved unit back.
    await limiter.decide([stuffing], subject, { nowMs: T0 + 1500 });
    expect(await limiter.giveBack(reserved, [stuffing], subject, { nowMs: T0 + 1600 })).toBe(0);
    expect(remaining(await limiter.peek([stuffing], subject, { nowMs: T0 + 1600 }))).toEqual({ tb: 1 });
  });

  it("sliding_log: the reservation's entry is removed while it is in the log", async () => {
    const stuffing = limiterRule({
      name: "sl",
      algorithm: "sliding_log",
      limit: 2,
      windowMs: 1000,
      cost: 2,
      chargeOn: ["4xx"],
    });
    const subject = subjectOf("roll-sl");
    const reserved = await limiter.decide([stuffing], subject, { nowMs: T0 });
    expect((await limiter.peek([stuffing], subject, { nowMs: T0 + 10 })).allowed).toBe(false);
    expect(await limiter.giveBack(reserved, [stuffing], subject, { nowMs: T0 + 10 })).toBe(1);
    expect(await limiter.giveBack(reserved, [stuffing], subject, { nowMs: T0 + 11 })).toBe(0);
    expect((await limiter.peek([stuffing], subject, { nowMs: T0 + 12 })).allowed).toBe(true);
  });
});

describe("the refusal cache and rules counted by response", () => {
  it("never keeps a refusal by such a rule (a give-back may free its quota any time), but keeps one under its penalty", async () => {
    const stuffing = limiterRule({ name: "cache", limit: 1, chargeOn: ["4xx"] });
    const subject = { tenantId: "co3", keyId: "k" };
    const reserved = await limiter.decide([stuffing], subject);
    expect((await limiter.decide([stuffing], subject)).allowed).toBe(false);
    expect(refusals.holdsTenant("co3")).toBe(false);
    await limiter.giveBack(reserved, [stuffing], subject);
    expect((await limiter.decide([stuffing], subject)).allowed).toBe(true);

    const penalized = limiterRule({ name: "cache-pen", limit: 1, blockMs: 60_000, chargeOn: ["4xx"] });
    await limiter.decide([penalized], { tenantId: "co4", keyId: "k" });
    await limiter.decide([penalized], { tenantId: "co4", keyId: "k" }); // refused: the penalty starts
    expect((await limiter.decide([penalized], { tenantId: "co4", keyId: "k" })).results[0]!.penalized).toBe(true);
    expect(refusals.holdsTenant("co4")).toBe(true);
  });
});
