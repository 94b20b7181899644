import { describe, expect, it } from "vitest";
import { overriddenMethod } from "./methodOverride";

describe("overriddenMethod", () => {
  it.each([
    [{}, undefined],
    [{ "x-http-method-override": ["post"] }, "POST"],
    [{ "x-http-method": [" DELETE "] }, "DELETE"],
    [{ "x-method-override": ["M-SEARCH"] }, "M-SEARCH"],
    // The same method in two of the headers is no ambiguity.
    [{ "x-http-method-override": ["PUT"], "x-method-override": ["put"] }, "PUT"],
  ])("%j asks for %s", (headers, method) => {
    expect(overriddenMethod(headers)).toEqual(method);
  });

  it.each([
    [{ "x-http-method-override": ["GET", "POST"] }, /more than once/],
    [{ "x-http-method-override": ["GET"], "x-http-method": ["POST"] }, /different methods \(GET, POST\)/],
    [{ "x-http-method-override": ["GET, POST"] }, /one HTTP method/],
    [{ "x-http-method": [""] }, /one HTTP method/],
  ])("%j is ambiguous", (headers, problem) => {
    const got = overriddenMethod(headers);
    expect(typeof got === "object" ? got.problem : got).toMatch(problem);
  });
});
