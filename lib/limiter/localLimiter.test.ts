import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { LocalLimiter } from "./localLimiter";
import { ALGORITHMS } from "./types";

describe("LocalLimiter (the `local` fail mode)", () => {
  it("enforces the rule's own algorithm in memory: limit, then refusal until the window ends", () => {
    const local = new LocalLimiter();
    const rule = limiterRule({ limit: 2, windowMs: 1000, failMode: "local" });
    const at = (now: number) => local.decide([{ rule, key: "k", penaltyKey: "pk" }], now)[0]!;
    expect([at(0).allowed, at(1).allowed, at(2).allowed]).toEqual([true, true, false]);
    expect(at(2).retryAfterMs).toBe(998);
    expect(at(1000).allowed).toBe(true);
  });

  it("consumes nothing when any enforce rule refuses", () => {
    const local = new LocalLimiter();
    const small = limiterRule({ name: "small", limit: 1, failMode: "local" });
    const big = limiterRule({ name: "big", limit: 100, failMode: "local" });
    local.decide([{ rule: small, key: "s", penaltyKey: "ps" }], 0);
    const refused = local.decide(
      [
        { rule: small, key: "s", penaltyKey: "ps" },
        { rule: big, key: "b", penaltyKey: "pb" },
      ],
      1,
    );
    expect(refused.map((r) => r.allowed)).toEqual([false, true]);
    expect(local.decide([{ rule: big, key: "b", penaltyKey: "pb" }], 2)[0]!.remaining).toBe(99);
  });

  it("consumes nothing when the request is refused by something else (commit false)", () => {
    const local = new LocalLimiter();
    const rule = limiterRule({ limit: 3, failMode: "local" });
    expect(local.decide([{ rule, key: "k", penaltyKey: "pk" }], 0, false)[0]).toMatchObject({
      allowed: true,
      remaining: 3,
    });
    expect(local.decide([{ rule, key: "k", penaltyKey: "pk" }], 1)[0]!.remaining).toBe(2);
  });

  it("keeps a penalty it starts: refused until the penalty's end, whatever the counter says", () => {
    const local = new LocalLimiter();
    const rule = limiterRule({ limit: 1, windowMs: 1000, blockMs: 5000, failMode: "local" });
    const at = (now: number) => local.decide([{ rule, key: "k", penaltyKey: "pk" }], now)[0]!;
    expect(at(0).allowed).toBe(true);
    expect(at(1)).toMatchObject({ allowed: false, retryAfterMs: 5000 }); // the counter refuses: the penalty starts
    expect(at(2000)).toMatchObject({ allowed: false, penalized: true, retryAfterMs: 3001, remaining: 0 });
    expect(at(5001).allowed).toBe(true);
  });

  it.each(ALGORITHMS)("%s: gives a reservation back into its window, never into a later one", (algorithm) => {
    const local = new LocalLimiter();
    const rule = limiterRule({ algorithm, limit: 2, burst: 2, windowMs: 1000, chargeOn: ["4xx"], failMode: "local" });
    const at = (now: number) => local.decide([{ rule, key: "k" }], now)[0]!;
    const first = at(0);
    expect([first.allowed, at(0).allowed, at(0).allowed]).toEqual([true, true, false]);
    const give = (nowMs: number) =>
      local.giveBack(rule, "k", { reservedAtMs: 0, nowMs, cost: 1, tatUntilMs: first.resetMs });
    expect(give(10)).toBe(true);
    expect(at(10).allowed).toBe(true);
    expect(at(10).allowed).toBe(false);
    // Long after the reservation's window (and TAT): nothing is given back.
    expect(give(5_000)).toBe(false);
  });
});
