import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { modelDecide } from "./modelDecide";
import { applyPenalty, penaltyLeft } from "./penalty";
import type { Evaluation } from "./model";

const T0 = 1_700_000_000_000;
const refusedByCounter: Evaluation<number> = {
  allowed: false,
  retryAfterMs: 400,
  before: { remaining: 0, resetMs: 400, nextMs: 400 },
  after: { remaining: 0, resetMs: 400, nextMs: 400 },
  next: null,
};
const admittedByCounter: Evaluation<number> = {
  allowed: true,
  retryAfterMs: 0,
  before: { remaining: 5, resetMs: 100, nextMs: 100 },
  after: { remaining: 4, resetMs: 100, nextMs: 100 },
  next: { state: 1, ttlMs: 100 },
};

describe("penaltyLeft", () => {
  it.each([
    ["no penalty stored", undefined, 5000, T0, 0],
    ["an ended penalty", T0, 5000, T0, 0],
    ["one in force", T0 + 3000, 5000, T0, 3000],
    ["one longer than the rule's blockMs now (lowered by an edit): capped", T0 + 9000, 5000, T0, 5000],
    ["a rule whose blockMs is now 0 (lifted by an edit)", T0 + 3000, 0, T0, 0],
  ])("%s", (_, end, blockMs, now, left) => {
    expect(penaltyLeft(end, blockMs, now)).toBe(left);
  });
});

describe("applyPenalty", () => {
  it("starts a penalty when the rule's own counter refuses a charged request, telling the client to wait to its end", () => {
    const outcome = applyPenalty(refusedByCounter, undefined, 5000, T0, true);
    expect(outcome).toMatchObject({ penalized: false, startsUntil: T0 + 5000 });
    expect(outcome.evaluation).toMatchObject({
      allowed: false,
      retryAfterMs: 5000,
      before: { remaining: 0, resetMs: 5000, nextMs: 5000 },
    });
  });

  it("refuses under a penalty in force whatever the counter says, without extending it", () => {
    const outcome = applyPenalty(admittedByCounter, T0 + 2500, 5000, T0, true);
    expect(outcome).toMatchObject({ penalized: true, startsUntil: null });
    expect(outcome.evaluation).toMatchObject({
      allowed: false,
      retryAfterMs: 2500,
      before: { remaining: 0, resetMs: 2500, nextMs: 2500 },
    });
  });

  it("never starts one on a peek, nor for a rule without a penalty, nor when the counter admits", () => {
    expect(applyPenalty(refusedByCounter, undefined, 5000, T0, false)).toEqual({
      evaluation: refusedByCounter,
      penalized: false,
      startsUntil: null,
    });
    expect(applyPenalty(refusedByCounter, undefined, 0, T0, true)).toEqual({
      evaluation: refusedByCounter,
      penalized: false,
      startsUntil: null,
    });
    expect(applyPenalty(admittedByCounter, undefined, 5000, T0, true)).toEqual({
      evaluation: admittedByCounter,
      penalized: false,
      startsUntil: null,
    });
  });

  it("keeps a counter's longer wait, and 'never' (-1) for a cost above capacity", () => {
    expect(
      applyPenalty({ ...refusedByCounter, retryAfterMs: 9000 }, T0 + 2000, 5000, T0, true).evaluation.retryAfterMs,
    ).toBe(9000);
    expect(
      applyPenalty({ ...refusedByCounter, retryAfterMs: -1 }, undefined, 5000, T0, true).evaluation.retryAfterMs,
    ).toBe(-1);
  });
});

describe("a penalty through modelDecide (injected clock)", () => {
  it("holds for blockMs after the refusal, over a counter that has room again, then lifts", () => {
    const rule = limiterRule({ algorithm: "fixed_window", limit: 2, windowMs: 1000, blockMs: 10_000 });
    const states = new Map<string, unknown>();
    const at = (ms: number) => modelDecide(states, [rule], T0 + ms)[0]!;
    expect([at(0).allowed, at(1).allowed]).toEqual([true, true]);
    expect(at(2)).toMatchObject({ allowed: false, penalized: false, retryAfterMs: 10_000 });
    expect(at(5000)).toMatchObject({ allowed: false, penalized: true, remaining: 0, retryAfterMs: 5002 });
    expect(at(10_002)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("consumes nothing on any rule while one enforce rule is under a penalty", () => {
    const strict = limiterRule({ name: "strict", limit: 1, windowMs: 60_000, blockMs: 60_000 });
    const roomy = limiterRule({ name: "roomy", limit: 100, windowMs: 60_000 });
    const states = new Map<string, unknown>();
    modelDecide(states, [strict, roomy], T0);
    modelDecide(states, [strict, roomy], T0 + 1);
    const third = modelDecide(states, [strict, roomy], T0 + 2);
    expect(third.map((r) => r.allowed)).toEqual([false, true]);
    expect(third[1]!.remaining).toBe(99);
  });

  it("a shadow rule's penalty is only 'would refuse': the request passes and the enforce rule consumes", () => {
    const shadow = limiterRule({ name: "shadow", limit: 1, windowMs: 60_000, blockMs: 60_000, mode: "shadow" });
    const enforce = limiterRule({ name: "enforce", limit: 100, windowMs: 60_000 });
    const states = new Map<string, unknown>();
    modelDecide(states, [shadow, enforce], T0);
    modelDecide(states, [shadow, enforce], T0 + 1);
    const later = modelDecide(states, [shadow, enforce], T0 + 30_000);
    expect(later[0]).toMatchObject({ allowed: false, penalized: true });
    expect(later[1]).toMatchObject({ allowed: true, remaining: 97 });
  });
});
