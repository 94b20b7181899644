import { describe, expect, it } from "vitest";
import { ALGORITHMS } from "@/lib/limiter/types";
import { ruleSchema, type Rule } from "@/lib/policy/rules/ruleSchema";
import { draftFromRule, draftToInput, emptyDraft, type RuleDraft } from "./ruleDraft";
import { hasErrors, NO_ERRORS, placeFieldErrors, validateDrafts } from "./ruleErrors";

const tenant = { kind: "tenant", tenantId: "Tn000001" } as const;
const key = { kind: "key", keyId: "Ky000001" } as const;

const draft = (fields: Partial<RuleDraft>): RuleDraft => ({ ...emptyDraft(), name: "per-key", limit: "10", ...fields });

describe("a stored rule survives the form unchanged", () => {
  it.each(ALGORITHMS)("%s", (algorithm) => {
    const rule: Rule = ruleSchema.parse({
      name: "r1",
      scope: "ip",
      algorithm,
      limit: 5,
      windowMs: 30_000,
      burst: algorithm === "token_bucket" || algorithm === "gcra" ? 9 : undefined,
      cost: 2,
      match: { methods: ["POST", "GET"], path: "/api/v1/echo/**" },
      failMode: "local",
      mode: "shadow",
    });
    expect(ruleSchema.parse(draftToInput(draftFromRule(rule)))).toEqual(rule);
  });
});

describe("a descriptor rule (Envoy's rate limit service) survives the form and is checked by the schema", () => {
  it("round trip keeps match.descriptor", () => {
    const rule: Rule = ruleSchema.parse({
      name: "login",
      scope: "descriptor",
      limit: 5,
      windowMs: 60_000,
      match: { descriptor: [{ key: "path", value: "/login" }, { key: "remote_address" }] },
    });
    expect(ruleSchema.parse(draftToInput(draftFromRule(rule)))).toEqual(rule);
  });

  it("a descriptor left behind by a scope change is not sent", () => {
    const rule = ruleSchema.parse({
      name: "per-address",
      scope: "descriptor",
      limit: 5,
      windowMs: 60_000,
      match: { descriptor: [{ key: "remote_address" }] },
    });
    const input = draftToInput({ ...draftFromRule(rule), scope: "ip" });
    expect(ruleSchema.parse(input).match).toEqual({});
  });
});

describe("the descriptor editor's entries", () => {
  const descriptorDraft = (descriptor: RuleDraft["descriptor"], more: Partial<RuleDraft> = {}) =>
    draft({ name: "login", scope: "descriptor", descriptor, ...more });

  it("an empty value is sent without one (counted per value); keys are trimmed, values kept as typed", () => {
    const input = draftToInput(
      descriptorDraft([
        { key: " path ", value: "/login" },
        { key: "remote_address", value: "" },
      ]),
    );
    expect(input.match).toEqual({ descriptor: [{ key: "path", value: "/login" }, { key: "remote_address" }] });
  });

  it("methods, path and charged responses hidden by the descriptor scope are not sent", () => {
    const input = draftToInput(
      descriptorDraft([{ key: "remote_address", value: "" }], {
        methods: ["GET"],
        path: "/login",
        pathAnyCase: true,
        chargeOn: ["4xx"],
      }),
    );
    expect(input.match).toEqual({ descriptor: [{ key: "remote_address" }] });
    expect(input.chargeOn).toBeUndefined();
    expect(validateDrafts(tenant, [descriptorDraft([{ key: "remote_address", value: "" }])]).ok).toBe(true);
  });

  it("an empty key, no entry at all or too many are refused on the descriptor field, in the form's words", () => {
    for (const entries of [
      [{ key: "", value: "" }],
      [],
      Array.from({ length: 17 }, (_, i) => ({ key: `k${i}`, value: "" })),
    ]) {
      const d = descriptorDraft(entries);
      const result = validateDrafts(tenant, [d]);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.rules[d.draftId]?.["match.descriptor"]).toMatch(/^Envoy descriptor: /);
    }
  });

  it("a key override cannot be a descriptor rule", () => {
    const d = descriptorDraft([{ key: "remote_address", value: "" }]);
    expect(validateDrafts(key, [d]).ok).toBe(false);
  });
});

describe("a concurrency rule survives the form, and its refusals are in the form's words", () => {
  it("round trip", () => {
    const rule: Rule = ruleSchema.parse({
      name: "inflight",
      scope: "ip",
      algorithm: "concurrency",
      limit: 3,
      windowMs: 30_000,
      failMode: "closed",
      mode: "shadow",
    });
    expect(ruleSchema.parse(draftToInput(draftFromRule(rule)))).toEqual(rule);
  });

  it("the local fail mode is refused on the Fail mode field", () => {
    const result = validateDrafts(tenant, [draft({ algorithm: "concurrency", failMode: "local" })]);
    expect(result.ok).toBe(false);
    const errors = result.ok ? NO_ERRORS : result.errors;
    expect(Object.values(errors.rules)[0]).toEqual({
      failMode: expect.stringMatching(/^Fail mode local is not available for concurrency/),
    });
  });
});

describe("draftToInput", () => {
  it("drops burst for the window algorithms, whatever the form still holds", () => {
    expect(draftToInput(draft({ algorithm: "fixed_window", burst: "50" })).burst).toBeUndefined();
    expect(draftToInput(draft({ algorithm: "gcra", burst: "50" })).burst).toBe(50);
  });

  it("leaves empty match fields out, so the rule matches every request", () => {
    expect(draftToInput(draft({ methods: [], path: "  " })).match).toEqual({ methods: undefined, path: undefined });
  });
});

describe("validateDrafts (the owner's own schema)", () => {
  it("accepts a valid list and returns what it will send", () => {
    const result = validateDrafts(tenant, [draft({})]);
    expect(result).toMatchObject({ ok: true, rules: [{ name: "per-key", limit: 10, windowMs: 60000 }] });
  });

  it("puts each message on the field of the rule it concerns", () => {
    const a = draft({ name: "a" });
    const b = draft({ name: "b", limit: "", window: "500 ms", cost: "1.5", path: "other" });
    const result = validateDrafts(tenant, [a, b]);
    if (result.ok) throw new Error("expected errors");
    expect(result.errors.rules[a.draftId]).toBeUndefined();
    expect(result.errors.rules[b.draftId]).toEqual({
      limit: "Limit must be a whole number, such as 100",
      windowMs: "Window must be at least 1 s",
      cost: "Cost must be a whole number",
      "match.path": "Path must start with / and contain no spaces, ? or #",
    });
  });

  it("refuses a duplicate name on the second rule", () => {
    const second = draft({});
    const result = validateDrafts(tenant, [draft({}), second]);
    expect(result.ok ? null : result.errors.rules[second.draftId]?.name).toBe("Another rule is already named per-key");
  });

  it("refuses a tenant-scope override on a key, but not on a tenant", () => {
    const d = draft({ scope: "tenant" });
    const result = validateDrafts(key, [d]);
    expect(result.ok ? null : result.errors.rules[d.draftId]?.scope).toMatch(/a key rule may not have scope tenant/i);
    expect(validateDrafts(tenant, [d]).ok).toBe(true);
  });
});

describe("durations in the form", () => {
  it("a window typed as a duration reaches the schema in milliseconds", () => {
    const result = validateDrafts(tenant, [draft({ window: "1.5 min" })]);
    expect(result).toMatchObject({ ok: true, rules: [{ windowMs: 90_000 }] });
  });

  it("text that is no duration gets a plain message on the window, not an API field name", () => {
    const d = draft({ window: "60000" });
    const result = validateDrafts(tenant, [d]);
    expect(result.ok ? null : result.errors.rules[d.draftId]?.windowMs).toBe(
      "Window: write a number and a unit: 500 ms, 30 s, 1 min, 2 h, 1 d",
    );
  });
});

describe("the penalty in the form", () => {
  it("a penalty typed as a duration reaches the schema as blockMs; empty means none", () => {
    expect(validateDrafts(tenant, [draft({ penalty: "10 min" })])).toMatchObject({
      ok: true,
      rules: [{ blockMs: 600_000 }],
    });
    const none = validateDrafts(tenant, [draft({ penalty: " " })]);
    expect(none.ok && none.rules[0]!.blockMs).toBeUndefined();
  });

  it.each([
    ["600", "Penalty: write a number and a unit: 500 ms, 30 s, 1 min, 2 h, 1 d, or leave it empty for none"],
    ["0.5 ms", "Penalty must be a whole number of milliseconds"],
    ["367 d", "Penalty must be at most 366 days"],
  ])("%s gets a plain message on the penalty field", (penalty, message) => {
    const d = draft({ penalty });
    const result = validateDrafts(tenant, [d]);
    expect(result.ok ? null : result.errors.rules[d.draftId]).toEqual({ blockMs: message });
  });

  it("a stored penalty is shown back as a duration", () => {
    expect(draftFromRule(ruleSchema.parse({ name: "p", limit: 1, windowMs: 1000, blockMs: 90_000 })).penalty).toBe(
      "90 s",
    );
    expect(draftFromRule(ruleSchema.parse({ name: "p", limit: 1, windowMs: 1000 })).penalty).toBe("");
  });
});

describe("placeFieldErrors (the server's 422 paths)", () => {
  const drafts = [draft({ name: "a" }), draft({ name: "b" })];

  it("reads array and object body paths alike", () => {
    const errors = placeFieldErrors(drafts, {
      "1.limit": ["limit must be at least 1"],
      "rules.0.match.methods.2": "methods must be among GET",
    });
    expect(errors.rules[drafts[1]!.draftId]).toEqual({ limit: "Limit must be at least 1" });
    expect(errors.rules[drafts[0]!.draftId]).toEqual({ "match.methods": "Methods must be among GET" });
  });

  it("keeps messages about the list, or about rules it no longer has, at the top", () => {
    const errors = placeFieldErrors(drafts, { "": ["at most 100 rules per owner"], "7.name": ["gone"] });
    expect(errors.list).toEqual(["at most 100 rules per owner", "gone"]);
    expect(hasErrors(errors)).toBe(true);
  });

  it("files an unknown field under the rule as a whole", () => {
    const errors = placeFieldErrors(drafts, { "0.colour": ["unknown field"] });
    expect(errors.rules[drafts[0]!.draftId]).toEqual({ rule: "unknown field" });
  });
});

describe("count by response in the form", () => {
  it("checked status classes reach the schema as chargeOn, in order; none checked leaves it out", () => {
    expect(validateDrafts(tenant, [draft({ chargeOn: ["5xx", "4xx"] })])).toMatchObject({
      ok: true,
      rules: [{ chargeOn: ["4xx", "5xx"] }],
    });
    const none = validateDrafts(tenant, [draft({ chargeOn: [] })]);
    expect(none.ok && "chargeOn" in none.rules[0]! && none.rules[0]!.chargeOn !== undefined).toBe(false);
  });

  it("a stored chargeOn survives the form, and an identifier rule with it gets a plain message on the control", () => {
    const rule = ruleSchema.parse({ name: "logins", limit: 3, windowMs: 60_000, chargeOn: ["4xx"] });
    expect(ruleSchema.parse(draftToInput(draftFromRule(rule)))).toEqual(rule);
    const d = draft({ scope: "identifier", chargeOn: ["4xx"] });
    const result = validateDrafts(tenant, [d]);
    expect(result.ok ? null : result.errors.rules[d.draftId]).toEqual({
      chargeOn: expect.stringMatching(/^Charge only responses: an identifier rule is charged by POST \/api\/v1\/check/),
    });
  });
});

describe("a case-insensitive path in the form", () => {
  it("survives the form; checked, it reaches the schema as match.caseInsensitive", () => {
    const rule = ruleSchema.parse({
      name: "logins",
      limit: 3,
      windowMs: 60_000,
      match: { path: "/api/v1/login", caseInsensitive: true },
    });
    expect(draftFromRule(rule).pathAnyCase).toBe(true);
    expect(ruleSchema.parse(draftToInput(draftFromRule(rule)))).toEqual(rule);
    expect(draftToInput(draft({ path: "/x" })).match?.caseInsensitive).toBeUndefined();
  });

  it("checked without a path: a plain message on the control", () => {
    const d = draft({ pathAnyCase: true });
    const result = validateDrafts(tenant, [d]);
    expect(result.ok ? null : result.errors.rules[d.draftId]).toEqual({
      "match.caseInsensitive": "Any case: write a path to compare, or uncheck it",
    });
  });
});

describe("a calendar rule (period, timeZone) in the form", () => {
  it("round trip keeps the period and its zone; a window typed before is not sent", () => {
    const rule: Rule = ruleSchema.parse({
      name: "monthly",
      algorithm: "fixed_window",
      limit: 1000,
      period: "month",
      timeZone: "Europe/Berlin",
    });
    expect(ruleSchema.parse(draftToInput(draftFromRule(rule)))).toEqual(rule);
    expect(draftToInput(draft({ algorithm: "fixed_window", period: "week", window: "1 min" }))).not.toHaveProperty(
      "windowMs",
    );
  });

  it("a period left behind by another algorithm is not sent: the window counts", () => {
    const input = draftToInput(draft({ algorithm: "sliding_window", period: "day", timeZone: "UTC" }));
    expect(input).not.toHaveProperty("period");
    expect(input.windowMs).toBe(60_000);
  });

  it("an unknown zone is placed on the time zone field", () => {
    const d = draft({ algorithm: "fixed_window", period: "day", timeZone: "Mars/Olympus" });
    const result = validateDrafts(tenant, [d]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.rules[d.draftId]?.timeZone).toMatch(/^Time zone must be an IANA time zone/);
  });
});
