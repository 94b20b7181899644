import { describe, expect, it } from "vitest";
import { touchedErrors, touchFields } from "./liveErrors";
import type { RuleDraft } from "./ruleDraft";

const draft = (over: Partial<RuleDraft>): RuleDraft =>
  ({ draftId: "d1", limit: "10", window: "1 min", ...over }) as RuleDraft;

describe("errors as typed", () => {
  it("marks the fields a change touched, by their schema path", () => {
    const touched = touchFields({}, [draft({})], [draft({ window: "1" })]);
    expect([...touched.d1!]).toEqual(["windowMs"]);
    const more = touchFields(touched, [draft({ window: "1" })], [draft({ window: "1", limit: "0" })]);
    expect([...more.d1!].sort()).toEqual(["limit", "windowMs"]);
  });

  it("shows the messages of touched fields, whole-rule and list messages always", () => {
    const errors = {
      list: ["too many rules"],
      rules: { d1: { limit: "Limit must be at least 1", windowMs: "Window: write…", rule: "unknown field" } },
    };
    expect(touchedErrors(errors, { d1: new Set(["limit"] as const) })).toEqual({
      list: ["too many rules"],
      rules: { d1: { limit: "Limit must be at least 1", rule: "unknown field" } },
    });
    expect(touchedErrors({ list: [], rules: { d2: { name: "Name: …" } } }, {})).toEqual({ list: [], rules: {} });
  });
});
