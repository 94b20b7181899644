import { describe, expect, it } from "vitest";
import { compileRule, rulesForRequest } from "@/lib/policy/compiled/effectiveRules";
import { ruleSchema } from "@/lib/policy/rules/ruleSchema";
import { draftToInput, emptyDraft, type RuleDraft } from "./ruleDraft";
import { parseTriedRequest, tryRules } from "./tryPath";

const draft = (patch: Partial<RuleDraft>): RuleDraft => ({
  ...emptyDraft("key"),
  name: "r",
  limit: "10",
  ...patch,
});

describe("the try-a-path box reads a request", () => {
  it("takes a method and a path, or a path alone as GET, and leaves the query out", () => {
    expect(parseTriedRequest("get /orders/42?x=1")).toEqual({ ok: true, method: "GET", path: "/orders/42" });
    expect(parseTriedRequest(" /login ")).toEqual({ ok: true, method: "GET", path: "/login" });
    expect(parseTriedRequest("GET /caf%C3%A9")).toEqual({ ok: true, method: "GET", path: "/café" });
  });

  it("refuses what the data plane refuses, and nonsense, with a reason", () => {
    expect(parseTriedRequest("")).toMatchObject({ ok: false });
    expect(parseTriedRequest("GET /a%2Fb")).toMatchObject({ ok: false, problem: expect.stringContaining("%2F") });
    expect(parseTriedRequest("GET orders")).toMatchObject({ ok: false });
    expect(parseTriedRequest("G(T /x")).toMatchObject({ ok: false });
    expect(parseTriedRequest("GET /x y")).toMatchObject({ ok: false });
  });

  it("notes how the gateway matches a path typed with /api/v1, but not echo's or check's", () => {
    const gateway = parseTriedRequest("GET /api/v1/orders/42");
    expect(gateway).toMatchObject({ ok: true, path: "/api/v1/orders/42" });
    expect(gateway.ok && gateway.note).toContain("matched as /orders/42");
    const echo = parseTriedRequest("GET /api/v1/echo/x");
    expect(echo.ok && echo.note).toBeUndefined();
  });
});

describe("the try-a-path box says which rules being edited a request meets", () => {
  const drafts = [
    draft({ name: "orders", path: "/orders/*" }),
    draft({ name: "old", path: "/api/v1/orders/*" }),
    draft({ name: "posts", methods: ["POST"], path: "/orders/**" }),
    draft({ name: "any", path: "" }),
    draft({ name: "any-case", path: "/Orders/*", pathAnyCase: true }),
    draft({ name: "ids", scope: "identifier" }),
    draft({ name: "", path: "/orders/ec*" }),
  ];

  it("gives each rule its verdict", () => {
    expect(tryRules(drafts, "GET", "/orders/42/").map((r) => [r.label, r.verdict])).toEqual([
      ["orders", "matches"],
      ["old", "no match"],
      ["posts", "no match"],
      ["any", "matches"],
      ["any-case", "matches"],
      ["ids", "never applies to requests"],
      ["Rule 7 (no name yet)", "path not valid"],
    ]);
    expect(tryRules(drafts, "POST", "/orders/42")[2]!.verdict).toBe("matches");
    expect(tryRules([draft({ methods: ["GET"], path: "/x" })], "HEAD", "/x")[0]!.verdict).toBe("matches");
  });

  it("agrees with the server's rulesForRequest on valid rules", () => {
    const valid = drafts.slice(0, 5);
    const compiled = valid.map((d) => compileRule(ruleSchema.parse(draftToInput(d)), d.name, false));
    for (const [method, path] of [
      ["GET", "/orders/42"],
      ["POST", "/orders/42/items"],
      ["GET", "/api/v1/orders/42"],
      ["GET", "/ORDERS/7"],
      ["DELETE", "/"],
    ] as const) {
      const server = rulesForRequest(compiled, method, path).map((r) => r.name);
      const box = tryRules(valid, method, path)
        .filter((r) => r.verdict === "matches")
        .map((r) => r.label);
      expect(box).toEqual(server);
    }
  });
});
