import { describe, expect, it } from "vitest";
import type { Limiter } from "../../limiter/decide";
import type { Decision, LimiterRule, Subject } from "../../limiter/types";
import type { TenantAccess } from "../../policy/compiled/accessLoader";
import { compileRule } from "../../policy/compiled/effectiveRules";
import { ruleSchema } from "../../policy/rules/ruleSchema";
import { shouldRateLimit, type RlsOutcome, type ShouldRateLimitDeps } from "./shouldRateLimit";

const rule = compileRule(
  ruleSchema.parse({
    name: "per-address",
    scope: "descriptor",
    limit: 1,
    windowMs: 60_000,
    match: { descriptor: [{ key: "remote_address" }] },
  }),
  "r1",
  false,
);
const tenant: TenantAccess = { id: "T1", name: "t", rules: [rule], keys: new Map() };
const call = (domain: string, descriptors = [{ entries: [{ key: "remote_address", value: "10.0.0.1" }] }]) => ({
  domain,
  descriptors,
  hits_addend: 0,
});

/** A limiter that refuses (`allowed` false) or admits every rule, recording what it was asked. */
function fakeLimiter(allowed: boolean, unavailable = false) {
  const asked: { rules: LimiterRule[]; subject: Subject }[] = [];
  const limiter = {
    async decide(rules: LimiterRule[], subject: Subject): Promise<Decision> {
      asked.push({ rules, subject });
      return {
        allowed: allowed && !unavailable,
        unavailable,
        retryAfterMs: allowed ? 0 : 1_000,
        nowMs: 0,
        results: rules.map((r) => ({
          rule: r,
          allowed,
          limit: r.limit,
          remaining: 0,
          resetMs: 60_000,
          retryAfterMs: allowed ? 0 : 1_000,
          nextMs: 60_000,
          source: unavailable ? ("fail_closed" as const) : ("redis" as const),
        })),
      };
    },
  } as unknown as Limiter;
  return { limiter, asked };
}

function deps(limiter: Limiter, outcomes: RlsOutcome[], ready?: () => Promise<void>): ShouldRateLimitDeps {
  return {
    tenant: (id) => (id === "T1" ? tenant : undefined),
    limiter,
    onOutcome: (o) => outcomes.push(o),
    ...(ready ? { ready } : {}),
  };
}

describe("shouldRateLimit", () => {
  it("one decision for the whole call, with each descriptor's subject in its slot", async () => {
    const { limiter, asked } = fakeLimiter(true);
    const outcomes: RlsOutcome[] = [];
    await shouldRateLimit(
      deps(limiter, outcomes),
      call("T1", [
        { entries: [{ key: "remote_address", value: "10.0.0.1" }] },
        { entries: [{ key: "remote_address", value: "10.0.0.2" }] },
      ]),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.subject).toEqual({ tenantId: "T1", attributes: { "0:r1": "10.0.0.1", "1:r1": "10.0.0.2" } });
    expect(outcomes).toEqual(["ok"]);
  });

  it("tells each outcome: over_limit, unknown_domain, invalid, unavailable", async () => {
    const outcomes: RlsOutcome[] = [];
    expect(await shouldRateLimit(deps(fakeLimiter(false).limiter, outcomes), call("T1"))).toMatchObject({
      response: { overall_code: "OVER_LIMIT" },
    });
    const unknown = fakeLimiter(true);
    expect(await shouldRateLimit(deps(unknown.limiter, outcomes), call("Nobody"))).toMatchObject({
      response: { overall_code: "OK", statuses: [{ code: "OK" }] },
    });
    expect(unknown.asked).toHaveLength(0);
    expect(await shouldRateLimit(deps(unknown.limiter, outcomes), call(""))).toHaveProperty("invalid");
    expect(await shouldRateLimit(deps(fakeLimiter(false, true).limiter, outcomes), call("T1"))).toHaveProperty(
      "unavailable",
    );
    expect(outcomes).toEqual(["over_limit", "unknown_domain", "invalid", "unavailable"]);
  });

  it("rules never loaded (the rule store down since the start): UNAVAILABLE, not OK", async () => {
    const outcomes: RlsOutcome[] = [];
    const answer = await shouldRateLimit(
      deps(fakeLimiter(true).limiter, outcomes, () => Promise.reject(new Error("down"))),
      call("T1"),
    );
    expect(answer).toHaveProperty("unavailable");
  });
});
