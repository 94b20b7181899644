import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodePathOnce } from "../../dataplane/requestPath";
import { compilePathGlob, normalizePath } from "./pathGlob";

/** As the data plane matches: a request path with escapes decoded once first, then the glob. */
function matches(glob: string, path: string): boolean {
  if (!path.includes("%")) return compilePathGlob(glob).test(normalizePath(path));
  const decoded = decodePathOnce(path);
  if (!decoded.ok) throw new Error(decoded.reason);
  return compilePathGlob(glob).test(normalizePath(decoded.path));
}

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
    ["/api/v1/echo/caf%C3%A9", "/api/v1/echo/café", true],
    ["/api/v1/echo/café", "/api/v1/echo/caf%c3%a9", true],
    // Decoded once, never twice: %2578 is the literal text %78, not x.
    ["/api/v1/echo/x", "/api/v1/echo/%2578", false],
    ["/api/v1/echo/%2578", "/api/v1/echo/%2578", true],
    ["/orders/*", "/orders/42", true],
    ["/api/v1", "/api/v1", true],
  ])("%s against %s: %s", (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });
});

/** The regex compilation the matcher replaced (exponential on hostile input): the reference on small inputs. */
function referenceRegex(glob: string): RegExp {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const segments = glob.split("/").filter(Boolean);
  return new RegExp(
    `^${segments.map((seg) => (seg === "**" ? "(?:/[^/]+)*" : seg === "*" ? "/[^/]+" : "/" + escape(seg))).join("")}$`,
  );
}

describe("path globs, matched segment by segment", () => {
  it.each([
    ["/api/v1/**/a/**/b", "/api/v1/x/a/y/z/b", true],
    ["/api/v1/**/a/**/b", "/api/v1/a/b", true],
    ["/api/v1/**/a/**/b", "/api/v1/b/a", false],
    ["/api/v1/**/**/**", "/api/v1", true],
    ["/api/v1/*/**/*", "/api/v1/a", false],
    ["/api/v1/*/**/*", "/api/v1/a/b", true],
    ["/api/v1/**/a/*/a/**", "/api/v1/a/a/a", true],
    ["/api/v1/**/a/*/a/**", "/api/v1/a/b/c/a", false],
    ["/api/v1/**", "/api/v1//x", false],
    ["/api/v1/**", "/", false],
    ["/**", "/", true],
    ["/", "/", true],
    ["/*", "/", false],
    ["/api/v1/**/x", "/api/v1/x", true],
  ])("%s against %s: %s", (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });

  it("decides hostile globs on long paths (six ** on a 4 KB path, a near miss at the end)", () => {
    const sixStars = "/api/v1/**/a/**/a/**/a/**/a/**/a/**/b";
    const nearMiss = "/api/v1" + "/a".repeat(2_048) + "/c";
    expect(nearMiss.length).toBeGreaterThan(4_096);
    expect(matches(sixStars, nearMiss)).toBe(false);
    expect(matches(sixStars, nearMiss.slice(0, -2) + "/b")).toBe(true);
    // The glob of the review's report, on a 3.2 KB path (3.4 s per match with the regex).
    const reported = "/api/v1/**/a/**/a/**/b";
    const path = "/api/v1" + "/a".repeat(1_600) + "/x";
    expect(matches(reported, path)).toBe(false);
    expect(matches(reported, path + "/b")).toBe(true);
    // A long run of ** is one **.
    expect(matches("/api/v1" + "/**".repeat(200) + "/b", "/api/v1" + "/a".repeat(2_000))).toBe(false);
  });

  it("agrees with the regex semantics it replaced, on random globs and paths", () => {
    const segment = fc.constantFrom("a", "b", "*", "**");
    const pathSegment = fc.constantFrom("a", "b", "c", "");
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 6 }),
        fc.array(pathSegment, { maxLength: 7 }),
        fc.boolean(),
        (globSegs, pathSegs, slash) => {
          const glob = "/api/v1" + globSegs.map((s) => "/" + s).join("");
          const path = normalizePath("/api/v1" + pathSegs.map((s) => "/" + s).join("") + (slash ? "/" : ""));
          expect(compilePathGlob(glob).test(path)).toBe(referenceRegex(glob).test(path));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

it("a glob keeps an encoded / literal: it never becomes a segment boundary", () => {
  expect(compilePathGlob("/api/v1/echo/a%2fb").test("/api/v1/echo/a/b")).toBe(false);
  expect(compilePathGlob("/api/v1/echo/a%2fb").test("/api/v1/echo/a%2Fb")).toBe(true);
});

it("caseInsensitive compares literals and the path in lower case; the default tells case apart", () => {
  const any = compilePathGlob("/api/v1/Login/*/**", { caseInsensitive: true });
  expect(any.test("/api/v1/LOGIN/x")).toBe(true);
  expect(any.test("/api/v1/login/X/Y")).toBe(true);
  expect(any.test("/api/v1/logout/x")).toBe(false);
  expect(compilePathGlob("/api/v1/caf%C3%A9", { caseInsensitive: true }).test("/api/v1/CAFÉ")).toBe(true);
  expect(compilePathGlob("/api/v1/login").test("/api/v1/LOGIN")).toBe(false);
});
