import { describe, expect, it } from "vitest";
import { problemReply } from "../http/problem";
import { asciiJson, PROBLEM_HEADER, withProblemHeader } from "./forwardAuthProblem";

describe("withProblemHeader", () => {
  it("copies a refusal's problem body into X-Sluice-Problem, the same JSON", () => {
    const refusal = problemReply(429, {
      title: "Too Many Requests",
      "violated-policies": ["per-key"],
      retryAfterMs: 1234,
    });
    const reply = withProblemHeader(refusal);
    expect(JSON.parse(reply.headers[PROBLEM_HEADER]!)).toEqual(JSON.parse(refusal.body!));
    expect(reply.body).toBe(refusal.body);
  });

  it("leaves an admission (2xx, empty body) without the header", () => {
    const admitted = { status: 200, headers: { "x-sluice-tenant": "t" }, body: "" };
    expect(withProblemHeader(admitted)).toBe(admitted);
  });

  it("escapes every character outside printable ASCII, so the value is a valid header and still the same JSON", () => {
    const json = JSON.stringify({ detail: "café \u2028 😀 \u0001" });
    const escaped = asciiJson(json);
    expect(escaped).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
  });
});
