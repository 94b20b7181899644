import { describe, expect, it } from "vitest";
import { ruleSchema, type RuleInput } from "../rules/ruleSchema";
import { compileRule, compileTierRule, layerRules, type CompiledRule } from "./effectiveRules";
import { AccessCache } from "./accessCache";
import type { KeyAccess, TenantAccess } from "./accessLoader";
import { rulesFingerprint } from "./rulesFingerprint";

const parse = (input: Partial<RuleInput> & { name: string }) =>
  ruleSchema.parse({ limit: 10, windowMs: 60_000, ...input });
const tenantRule = (input: Partial<RuleInput> & { name: string }) => compileRule(parse(input), input.name, false);
const tierRule = (input: Partial<RuleInput> & { name: string }, tier = "pro") =>
  compileTierRule(parse(input), input.name, tier);
const keyRule = (input: Partial<RuleInput> & { name: string }) => compileRule(parse(input), input.name, true);

const shown = (rules: CompiledRule[]) =>
  rules.map((r) => [r.rule.name, r.rule.limit, r.override ? "key" : (r.tier ?? "tenant")]);

describe("a caller's rules: tenant, then tier, then key (layerRules)", () => {
  const tenant = [tenantRule({ name: "per-key" }), tenantRule({ name: "per-ip", scope: "ip" })];

  it("a tier rule with a tenant rule's name replaces it in place; other tier rules are added", () => {
    const rules = layerRules(tenant, [tierRule({ name: "per-key", limit: 100 }), tierRule({ name: "burst" })]);
    expect(shown(rules)).toEqual([
      ["per-key", 100, "pro"],
      ["per-ip", 10, "tenant"],
      ["burst", 10, "pro"],
    ]);
  });

  it("the key's own rule wins over the tier's and the tenant's of the same name", () => {
    const rules = layerRules(
      tenant,
      [tierRule({ name: "per-key", limit: 100 }), tierRule({ name: "burst", limit: 5 })],
      [keyRule({ name: "per-key", limit: 7 }), keyRule({ name: "burst", limit: 3 }), keyRule({ name: "own" })],
    );
    expect(shown(rules)).toEqual([
      ["per-key", 7, "key"],
      ["per-ip", 10, "tenant"],
      ["burst", 3, "key"],
      ["own", 10, "key"],
    ]);
  });

  it("no tier rules and no key rules leave the tenant's list as it is (the same list, no copy)", () => {
    expect(layerRules(tenant)).toBe(tenant);
    expect(layerRules(tenant, [], [])).toBe(tenant);
  });
});

function tenantWithTiers(): TenantAccess {
  const rules = [tenantRule({ name: "per-key" })];
  const proOwn = [tierRule({ name: "per-key", limit: 1000 })];
  const tiers = new Map([["pro", { own: proOwn, rules: layerRules(rules, proOwn) }]]);
  const key = (id: string, tier?: string): KeyAccess => ({
    id,
    tenantId: "T1",
    name: id,
    secretHash: "h",
    expiresAtMs: null,
    ...(tier ? { tier } : {}),
    overrides: [],
    rules: layerRules((tier ? tiers.get(tier)?.rules : undefined) ?? rules),
  });
  return {
    id: "T1",
    name: "T1",
    rules,
    tiers,
    keys: new Map([
      ["K1", key("K1", "pro")],
      ["K2", key("K2", "missing")],
    ]),
  };
}

describe("AccessCache.rulesFor", () => {
  const cache = new AccessCache({
    loadAll: async () => new Map([["T1", tenantWithTiers()]]),
    loadTenant: async () => tenantWithTiers(),
  });

  it("a JWT caller's tier gets the tier's set; no tier, or a tier without rules, the tenant's", async () => {
    await cache.ready();
    const limit = (rules: CompiledRule[]) => rules.map((r) => r.rule.limit);
    expect(limit(cache.rulesFor("T1", { tier: "pro" }))).toEqual([1000]);
    expect(limit(cache.rulesFor("T1", { tier: "nope" }))).toEqual([10]);
    expect(limit(cache.rulesFor("T1", {}))).toEqual([10]);
    expect(cache.rulesFor("T-unknown", { tier: "pro" })).toEqual([]);
  });

  it("a key's set is the one compiled at load: its tier's, or the tenant's when its tier has no rules", async () => {
    await cache.ready();
    expect(cache.rulesFor("T1", { key: cache.key("K1") }).map((r) => r.rule.limit)).toEqual([1000]);
    expect(cache.rulesFor("T1", { key: cache.key("K2") }).map((r) => r.rule.limit)).toEqual([10]);
  });
});

describe("rulesFingerprint with tiers", () => {
  it("changes when a tier's rules change or a key moves to another tier", () => {
    const base = tenantWithTiers();
    const moved = tenantWithTiers();
    moved.keys.set("K1", { ...moved.keys.get("K1")!, tier: "other" });
    const edited = tenantWithTiers();
    const own = [tierRule({ name: "per-key", limit: 999 })];
    edited.tiers!.set("pro", { own, rules: layerRules(edited.rules, own) });
    expect(rulesFingerprint(tenantWithTiers())).toBe(rulesFingerprint(base));
    expect(rulesFingerprint(moved)).not.toBe(rulesFingerprint(base));
    expect(rulesFingerprint(edited)).not.toBe(rulesFingerprint(base));
  });
});
