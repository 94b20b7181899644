import { describe, expect, it } from "vitest";
import { absoluteForm, decodePathOnce, isDataPlaneTarget, rawPathAfter, splitTarget } from "./requestPath";

describe("decodePathOnce", () => {
  it.each([
    ["/api/v1/echo", "/api/v1/echo"],
    ["/api/v1/echo/%78", "/api/v1/echo/x"],
    ["/api/v1/echo/caf%C3%A9", "/api/v1/echo/café"],
    ["/api/v1/echo/a%20b", "/api/v1/echo/a b"],
    // Decoded once: the %25 becomes %, and the %78 behind it is never decoded again.
    ["/api/v1/echo/%2578", "/api/v1/echo/%78"],
    ["/api/v1/echo/%252F", "/api/v1/echo/%2F"],
    ["/api/v1/echo/...", "/api/v1/echo/..."],
    ["/api/v1/echo/a.b", "/api/v1/echo/a.b"],
    ["/api/v1/echo/", "/api/v1/echo/"],
  ])("%s is %s", (raw, decoded) => {
    expect(decodePathOnce(raw)).toEqual({ ok: true, path: decoded });
  });

  it.each([
    ["/api/v1/echo/export%2Fa", "encoded /"],
    ["/api/v1/echo/export%2fa", "encoded / in lower case"],
    ["/api/v1/echo/a%5Cb", "encoded \\"],
    ["/api/v1/echo/a%5cb", "encoded \\ in lower case"],
    ["/api/v1/echo/a\\b", "raw \\"],
    ["/api/v1/echo/%ZZ", "malformed escape"],
    ["/api/v1/echo/%", "truncated escape"],
    ["/api/v1/echo/%C0%AE", "invalid UTF-8"],
    ["/api/v1/echo/%00", "NUL"],
    ["/api/v1/echo/..", "dot-dot segment"],
    ["/api/v1/echo/%2e%2e/x", "encoded dot-dot segment"],
    ["/api/v1/./echo", "dot segment"],
    ["/api/v1//echo", "empty segment"],
    ["api/v1/echo", "no leading slash"],
  ])("%s is refused (%s)", (raw) => {
    const decoded = decodePathOnce(raw);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toMatch(/path/);
  });

  it.each([
    ["/api/v1/login;jsessionid=1", "/api/v1/login"],
    ["/api/v1/a;x/b;y=2/c", "/api/v1/a/b/c"],
    ["/api/v1/login/;x", "/api/v1/login/"],
    // Stripped before decoding, as Tomcat and Spring do: an encoded ; is part of the segment's name.
    ["/api/v1/login%3Bx", "/api/v1/login;x"],
    ["/api/v1/caf%C3%A9;v=%41", "/api/v1/café"],
  ])("%s: path parameters are no part of the path rules match (%s)", (raw, decoded) => {
    expect(decodePathOnce(raw)).toEqual({ ok: true, path: decoded });
  });

  it.each([
    ["/api/v1/..;/admin", /\. or \.\. segments/],
    ["/api/v1/.;x/admin", /\. or \.\. segments/],
    ["/api/v1/%2e%2e;x/admin", /\. or \.\. segments/],
    ["/api/v1/;x/login", /empty segment/],
    ["/api/v1/a;%2F..", /encoded \//],
    ["/api/v1/a;\\..", /backslash/],
  ])("%s is refused: a traversal or separator hidden behind a path parameter", (raw, reason) => {
    const decoded = decodePathOnce(raw);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.reason).toMatch(reason);
  });

  it.each(["/api/v1/login#", "/api/v1/login#x", "/api/v1/#/../admin"])("%s is refused: a fragment", (raw) => {
    expect(decodePathOnce(raw)).toEqual({ ok: false, reason: "The request target must not contain a fragment (#)." });
  });
});

describe("splitTarget", () => {
  it("keeps the query with its ?", () => {
    expect(splitTarget("/a/b?x=1&y")).toEqual({ rawPath: "/a/b", query: "?x=1&y" });
    expect(splitTarget("/a")).toEqual({ rawPath: "/a", query: "" });
  });
});

describe("rawPathAfter", () => {
  it("drops the first segments, keeping the rest as sent", () => {
    expect(rawPathAfter("/api/v1/orders/4%202", 2)).toBe("/orders/4%202");
    expect(rawPathAfter("/api/%761/orders", 2)).toBe("/orders");
    expect(rawPathAfter("/api/v1", 2)).toBe("");
    expect(rawPathAfter("/api/v1/", 2)).toBe("/");
  });
});

describe("isDataPlaneTarget", () => {
  it.each([
    ["/api/v1", true],
    ["/api/v1?x", true],
    ["/api/v1/echo?x=1", true],
    ["/api/%761/echo", true],
    ["/api/x/../v1/echo", true],
    ["//api//v1/echo", true],
    ["/api\\v1/echo", true],
    ["/api/v1%2Fecho", true],
    ["/api/v1echo", false],
    ["/api/admin/tenants", false],
    ["/api/health", false],
    ["/", false],
    ["/tenants", false],
    // Spelled under /api/v1: the data plane refuses its dot segment (400); it never reaches the admin API.
    ["/api/v1/../admin/tenants", true],
    // A fragment is no part of the path: the data plane's, which refuses it (400), wherever it is.
    ["/api/v1#", true],
    ["/api/v1#/../admin/tenants", true],
    ["/api/admin#/../v1", false],
    ["/api;x/v1/echo", true],
    ["/api/v1;x", true],
    // OPTIONS *: no route, refused by the data plane with a problem (Next answered a text/plain 500).
    ["*", true],
  ])("%s: %s", (target, expected) => {
    expect(isDataPlaneTarget(target)).toBe(expected);
  });
});

describe("absoluteForm", () => {
  it.each([
    ["http://api.example/api/v1/echo?x=1", { originForm: "/api/v1/echo?x=1", authority: "api.example" }],
    ["HTTPS://api.example:8443/api/v1", { originForm: "/api/v1", authority: "api.example:8443" }],
    ["http://api.example", { originForm: "/", authority: "api.example" }],
    ["http://api.example?x=1", { originForm: "/?x=1", authority: "api.example" }],
    ["http://[::1]:3000/api/v1/a%2Fb", { originForm: "/api/v1/a%2Fb", authority: "[::1]:3000" }],
    // Kept, so that the data plane refuses it as it refuses any target with a fragment.
    ["http://api.example/api/v1/login#x", { originForm: "/api/v1/login#x", authority: "api.example" }],
  ])("%s", (target, expected) => {
    expect(absoluteForm(target)).toEqual(expected);
  });

  it.each([
    "/api/v1/echo",
    "*",
    "http:///api/v1",
    "http://user:pw@api.example/api/v1",
    "ftp://api.example/x",
    "api.example:443",
  ])("%s is not taken as absolute-form", (target) => {
    expect(absoluteForm(target)).toBeNull();
  });
});
