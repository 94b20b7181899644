import { describe, expect, it } from "vitest";
import { boom, fakeRedis } from "@/test/support/fakeDecideRedis";
import { createLimiter } from "../../limiter/decide";
import { LocalLimiter } from "../../limiter/localLimiter";
import { ANONYMOUS_TENANT, anonymousRule } from "./anonymousRule";

describe("anonymousRule", () => {
  it("still refuses bad-key guessing with Redis unreachable: counted in the instance's memory (failMode local)", async () => {
    const { client } = fakeRedis(boom);
    const limiter = createLimiter({ redis: client, prefix: "p:", timeoutMs: 50, local: new LocalLimiter() });
    const rule = anonymousRule(3);
    const guesser = { tenantId: ANONYMOUS_TENANT, ip: "203.0.113.9" };
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.decide([rule], guesser));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]!.results[0]!.source).toBe("fail_local");
    // Another address has its own count.
    expect((await limiter.decide([rule], { ...guesser, ip: "203.0.113.10" })).allowed).toBe(true);
  });
});
