import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { RefusalCache } from "../../limiter/refusalCache";
import type { Decision } from "../../limiter/types";
import { AccessCache } from "./accessCache";
import type { AccessLoader, KeyAccess, TenantAccess } from "./accessLoader";
import { compileRule, type CompiledRule } from "./effectiveRules";
import { ruleSchema, type RuleInput } from "../rules/ruleSchema";
import { rulesFingerprint } from "./rulesFingerprint";

const compiled = (input: Partial<RuleInput> & { name: string }, override = false): CompiledRule =>
  compileRule(ruleSchema.parse({ limit: 10, windowMs: 60_000, ...input }), input.name, override);

/** A fresh load each time, as Postgres gives: new objects, equal content unless `limit` changes. */
function load(limit: number, overrideLimit?: number): TenantAccess {
  const rules = [compiled({ name: "per-key", limit })];
  const overrides = overrideLimit === undefined ? [] : [compiled({ name: "per-key", limit: overrideLimit }, true)];
  const key: KeyAccess = { id: "K1", tenantId: "T1", name: "k", secretHash: "h", expiresAtMs: null, overrides, rules };
  return { id: "T1", name: "t", rules, keys: new Map([["K1", key]]) };
}

const refused: Decision = {
  allowed: false,
  unavailable: false,
  retryAfterMs: 60_000,
  nowMs: 0,
  results: [
    {
      rule: limiterRule(),
      allowed: false,
      limit: 10,
      remaining: 0,
      resetMs: 60_000,
      retryAfterMs: 60_000,
      nextMs: 60_000,
      source: "redis",
    },
  ],
};

describe("rulesFingerprint", () => {
  it("is equal for two loads of the same rules and differs on any edit", () => {
    expect(rulesFingerprint(load(10))).toBe(rulesFingerprint(load(10)));
    expect(rulesFingerprint(load(11))).not.toBe(rulesFingerprint(load(10)));
    expect(rulesFingerprint(load(10, 5))).not.toBe(rulesFingerprint(load(10)));
    expect(rulesFingerprint(null)).toBe("");
  });

  it("wired as in services.ts: a periodic full refresh of unchanged rules keeps cached refusals; an edit drops them", async () => {
    let limit = 10;
    const loader: AccessLoader = {
      loadAll: async () => new Map([["T1", load(limit)]]),
      loadTenant: async () => load(limit),
    };
    const refusals = new RefusalCache();
    const access = new AccessCache(loader, {
      onTenantReplaced: (id, tenant) => refusals.rulesLoaded(id, rulesFingerprint(tenant)),
    });
    await access.ready();
    refusals.remember("T1", "fp", refused, 0);
    await access.refreshAll();
    await access.tenantChanged("T1");
    expect(refusals.get("fp", 1)).toBeDefined();
    limit = 20;
    await access.refreshAll();
    expect(refusals.get("fp", 1)).toBeUndefined();
  });
});
