import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { errors, jsonAnswer, noContent } from "@/lib/control/openapi/common";
import { answerProblems, assertDocumentedAnswer, undescribedKeys } from "./answerConformance";

const thing = z.object({ id: z.string(), tags: z.array(z.object({ name: z.string() })), extra: z.looseObject({}) });
const GROUPS: ZodOpenApiPathsObject[] = [
  {
    "/api/admin/things/{thingId}": {
      get: { responses: { "200": jsonAnswer("A thing.", thing), ...errors("not_found") } },
      delete: { responses: { "204": noContent("Gone.") } },
    },
  },
];
const ok = { id: "a", tags: [{ name: "x" }], extra: { anything: 1 } };
const answer = (body: unknown, over: Partial<Parameters<typeof answerProblems>[0]> = {}) =>
  answerProblems(
    { method: "GET", path: "/api/admin/things/t1?x=1", status: 200, contentType: "application/json", body, ...over },
    GROUPS,
  );

describe("answer conformance", () => {
  it("accepts the documented shape (a loose object keeps its keys)", () => {
    expect(answer(ok)).toEqual([]);
  });

  it("fails on a key the schema does not describe, however deep", () => {
    expect(answer({ ...ok, secret: "s" })).toEqual(["secret: not described by the schema"]);
    expect(answer({ ...ok, tags: [{ name: "x", hash: "h" }] })).toEqual(["tags[0].hash: not described by the schema"]);
  });

  it("fails on a missing or mistyped field", () => {
    expect(answer({ id: 1, tags: [], extra: {} })).toEqual([expect.stringMatching(/^id: /)]);
    expect(answer({ tags: [], extra: {} })).toHaveLength(1);
  });

  it("fails on an undocumented success status and a body where none is documented", () => {
    expect(answer(ok, { status: 201 })).toEqual(["GET /api/admin/things/{thingId} does not document status 201"]);
    expect(answer({ id: "a" }, { method: "DELETE", status: 204 })).toEqual(["status 204 is documented without a body"]);
    expect(answer(null, { method: "DELETE", status: 204 })).toEqual([]);
  });

  it("checks an error answer against the problem schema, documented or not", () => {
    const problem = { type: "about:blank", title: "Not Found", status: 404, detail: "No thing." };
    const asProblem = { contentType: "application/problem+json" };
    expect(answer(problem, { status: 404, ...asProblem })).toEqual([]);
    expect(answer({ ...problem, status: 405 }, { status: 405, ...asProblem })).toEqual([]);
    expect(answer({ ...problem, stack: "at ..." }, { status: 404, ...asProblem })).toEqual([
      "stack: not described by the schema",
    ]);
    expect(answer(problem, { status: 404 })).toEqual(["an error answer that is not problem+json"]);
  });

  it("does not check a path the document does not describe", () => {
    expect(answer({ whatever: true }, { path: "/api/admin/unknown" })).toEqual([]);
  });

  it("finds undescribed keys only where the parsed value dropped them", () => {
    expect(undescribedKeys({ a: { b: 1, c: 2 } }, { a: { b: 1 } })).toEqual(["a.c"]);
    expect(undescribedKeys([{ a: 1 }], [{ a: 1 }])).toEqual([]);
  });

  it("throws, naming the route and the problem, on the real document (an answer with a key no schema has)", () => {
    const tenant = { id: "t1", name: "n", createdAt: "2026-01-01T00:00:00.000Z", keyCount: 0 };
    const call = { method: "GET", path: "/api/admin/tenants", status: 200, contentType: "application/json" };
    expect(() => assertDocumentedAnswer({ ...call, body: [tenant] })).not.toThrow();
    expect(() => assertDocumentedAnswer({ ...call, body: [{ ...tenant, internalNote: "x" }] })).toThrow(
      /GET \/api\/admin\/tenants answered 200 .*\n.*\[0\]\.internalNote: not described/,
    );
  });
});
