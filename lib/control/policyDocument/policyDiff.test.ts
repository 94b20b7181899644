import { describe, expect, it } from "vitest";
import { ruleSchema } from "../../policy/rules/ruleSchema";
import { canonicalJson, changedParts, ifMatchHolds, policyEtag, storedForm, type PolicyState } from "./policyDiff";
import { policyDocumentSchema } from "./policyDocumentSchema";

const rule = (over: Record<string, unknown> = {}) =>
  ruleSchema.parse({ name: "per-key", scope: "key", limit: 10, windowMs: 60_000, ...over });

const base = (): PolicyState => ({
  rules: [storedForm(rule())],
  keys: { k1: { tier: null, rules: [] } },
  tiers: {},
  overrides: {},
  access: { allow: [], deny: [] },
  identity: { hosts: [], apiKeys: true, jwt: null, anonymous: false },
  upstream: null,
  alerts: null,
});

describe("canonicalJson", () => {
  it("sorts keys at every level and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: undefined, x: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[{"x":2,"z":1}]},"b":1}',
    );
  });

  it("gives equal documents equal ETags whatever their key order, and different ones different ETags", () => {
    expect(policyEtag({ a: 1, b: [1, 2] })).toBe(policyEtag({ b: [1, 2], a: 1 }));
    expect(policyEtag({ a: 1, b: [1, 2] })).not.toBe(policyEtag({ a: 1, b: [2, 1] }));
    expect(policyEtag({})).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  });
});

describe("ifMatchHolds", () => {
  it("holds without the header, for *, for the ETag (also weak or in a list), and not for another", () => {
    expect(ifMatchHolds(null, '"a"')).toBe(true);
    expect(ifMatchHolds("*", '"a"')).toBe(true);
    expect(ifMatchHolds('"a"', '"a"')).toBe(true);
    expect(ifMatchHolds('W/"a"', '"a"')).toBe(true);
    expect(ifMatchHolds('"b", "a"', '"a"')).toBe(true);
    expect(ifMatchHolds('"b"', '"a"')).toBe(false);
  });
});

describe("storedForm", () => {
  it("is what a parsed rule reads back as, so an unchanged rule compares equal", () => {
    const parsed = rule({ match: { path: "/x", methods: ["GET"] } });
    expect(canonicalJson(storedForm(parsed))).toBe(canonicalJson(storedForm(storedForm(parsed))));
  });
});

describe("changedParts", () => {
  const refOf = (id: string) => (id === "k1" ? "alice" : id);

  it("names nothing for equal states, whatever their key order", () => {
    const a = base();
    const b = JSON.parse(JSON.stringify(base())) as PolicyState;
    b.identity = { anonymous: false, jwt: null, apiKeys: true, hosts: [] };
    expect(changedParts(a, b, refOf)).toEqual([]);
  });

  it("names each changed part by its path, in the order they are applied", () => {
    const want = base();
    want.rules = [storedForm(rule({ limit: 11 }))];
    want.tiers = { pro: [storedForm(rule())] };
    want.keys = { k1: { tier: "pro", rules: [storedForm(rule({ limit: 5 }))] } };
    want.access = { allow: ["10.0.0.0/8"], deny: [] };
    want.upstream = { url: "https://api.example.com", timeoutMs: 30_000, signRequests: false };
    expect(changedParts(base(), want, refOf)).toEqual([
      "rules",
      "tiers.pro",
      "keys.alice.tier",
      "keys.alice.rules",
      "access",
      "upstream",
    ]);
  });

  it("compares only the keys the desired state names, and a tier or overrides dropped is a change", () => {
    const have = base();
    have.tiers = { gold: [storedForm(rule())] };
    have.overrides = { "per-user": [{ identifier: "acme", limit: 5 }] };
    const want = base();
    want.keys = {};
    expect(changedParts(have, want, refOf)).toEqual(["tiers.gold", "overrides.per-user"]);
  });
});

describe("policyDocumentSchema", () => {
  const doc = {
    rules: [{ name: "per-key", scope: "key", limit: 10, windowMs: 60_000 }],
    keys: { alice: { tier: "pro" } },
    tiers: { pro: [{ name: "per-key", scope: "key", limit: 100, windowMs: 60_000 }] },
    overrides: {},
    access: { allow: [], deny: [] },
    identity: {},
    upstream: null,
    alerts: null,
  };

  it("accepts a document and fills each part's defaults", () => {
    const parsed = policyDocumentSchema.parse(doc);
    expect(parsed.keys.alice).toEqual({ tier: "pro", rules: [] });
    expect(parsed.identity).toEqual({ hosts: [], apiKeys: true, jwt: null, anonymous: false });
  });

  it("refuses with each problem at its path: the parts' own schemas apply", () => {
    const result = policyDocumentSchema.safeParse({
      ...doc,
      keys: { alice: { rules: [{ name: "t", scope: "tenant", limit: 1, windowMs: 60_000 }] } },
      tiers: { "Not A Tier": [] },
      upstream: { url: "https://api.example.com", signRequests: true, rotateSecret: true },
      alerts: { refusalRate: null, clientLimit: null },
      extra: 1,
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining([
        "keys.alice.rules.0.scope",
        "tiers.Not A Tier",
        "upstream.rotateSecret",
        "alerts.conditions",
        "",
      ]),
    );
  });

  it("requires every part", () => {
    const partial: Record<string, unknown> = { ...doc };
    delete partial.alerts;
    const result = policyDocumentSchema.safeParse(partial);
    expect(result.error!.issues.map((i) => i.path.join("."))).toEqual(["alerts"]);
  });
});
