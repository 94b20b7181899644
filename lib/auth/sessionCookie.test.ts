import { describe, expect, it } from "vitest";
import { clearedSessionCookie, readSessionCookie, SESSION_COOKIE, SESSION_TTL_MS, sessionCookie } from "./sessionCookie";

const attributesOf = (setCookie: string) => setCookie.split(";").slice(1).map((a) => a.trim());

describe("sessionCookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, 12 h, and not Secure over plain HTTP", () => {
    const cookie = sessionCookie("tok", false);
    expect(cookie.startsWith(`${SESSION_COOKIE}=tok;`)).toBe(true);
    expect(attributesOf(cookie).sort()).toEqual(["HttpOnly", "Max-Age=43200", "Path=/", "SameSite=Lax"]);
    expect(SESSION_TTL_MS).toBe(43_200_000);
  });

  it("is Secure over HTTPS", () => {
    expect(attributesOf(sessionCookie("tok", true))).toContain("Secure");
  });

  it("takes the remaining lifetime, rounded down, never negative", () => {
    expect(attributesOf(sessionCookie("tok", false, 90_999))).toContain("Max-Age=90");
    expect(attributesOf(sessionCookie("tok", false, -5))).toContain("Max-Age=0");
  });

  it("clearing sets an empty value with Max-Age=0 and the same attributes", () => {
    const cleared = clearedSessionCookie(true);
    expect(cleared.startsWith(`${SESSION_COOKIE}=;`)).toBe(true);
    expect(attributesOf(cleared).sort()).toEqual(["HttpOnly", "Max-Age=0", "Path=/", "SameSite=Lax", "Secure"]);
  });
});

describe("readSessionCookie", () => {
  it.each([
    ["no Cookie header", undefined, null],
    ["only other cookies", "a=1; b=2", null],
    ["the cookie alone", `${SESSION_COOKIE}=abc`, "abc"],
    ["among others, with spaces", `a=1;  ${SESSION_COOKIE}=abc ; b=2`, "abc"],
    ["an empty value", `${SESSION_COOKIE}=`, null],
    ["a cookie whose name only ends like it", `x${SESSION_COOKIE}=evil`, null],
    ["the first of two", `${SESSION_COOKIE}=one; ${SESSION_COOKIE}=two`, "one"],
  ])("%s", (_, header, expected) => {
    expect(readSessionCookie(new Headers(header === undefined ? {} : { cookie: header }))).toBe(expected);
  });
});
