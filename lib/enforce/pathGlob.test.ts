import { describe, expect, it } from "vitest";
import { compilePathGlob, normalizePath } from "./pathGlob";

const matches = (glob: string, path: string) => compilePathGlob(glob).test(normalizePath(path));

describe("path globs", () => {
  it.each([
    ["/api/v1/echo/*", "/api/v1/echo/a", true],
    ["/api/v1/echo/*", "/api/v1/echo/a/b", false],
    ["/api/v1/echo/*", "/api/v1/echo", false],
    ["/api/v1/echo/**", "/api/v1/echo", true],
    ["/api/v1/echo/**", "/api/v1/echo/a/b/c", true],
    ["/api/v1/**/c", "/api/v1/a/b/c", true],
    ["/api/v1/echo", "/api/v1/echo/", true],
    ["/api/v1/echo", "/api/v1/echoes", false],
    ["/api/v1/a.b", "/api/v1/aXb", false],
    ["/api/v1/echo/x", "/api/v1/echo/%78", true],
    ["/api/v1/echo/x", "/api/v1/echo/X", false],
    ["/api/v1/echo/a%2Fb", "/api/v1/echo/a%2fb", true],
    ["/api/v1", "/api/v1", true],
  ])("%s against %s: %s", (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });
});
