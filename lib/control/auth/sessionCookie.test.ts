import { describe, expect, it } from "vitest";
import {
  clearedSessionCookie,
  readSessionCookie,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionCookie,
} from "./sessionCookie";

const attributesOf = (setCookie: string) =>
  setCookie
    .split(";")
    .slice(1)
    .map((a) => a.trim());

describe("sessionCookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, 12 h, and not Secure over plain HTTP", () => {
    const cookie = sessionCookie("tok", false);
    expect(cookie.startsWith(`${SESSION_COOKIE}=tok;`)).toBe(true);
    expect(attributesOf(cookie).sort()).toEqual(["HttpOnly", "Max-Age=43200", "Path=/", "SameSite=Lax"]);
    expect(SESSION_TTL_MS).toBe(43_200_000);
  });

  it("over HTTPS is __Host-sluice_session: Secure, Path=/ and no Domain, as the prefix requires", () => {
    const cookie = sessionCookie("tok", true);
    expect(SECURE_SESSION_COOKIE).toBe("__Host-sluice_session");
    expect(cookie.startsWith("__Host-sluice_session=tok;")).toBe(true);
    expect(attributesOf(cookie).sort()).toEqual(["HttpOnly", "Max-Age=43200", "Path=/", "SameSite=Lax", "Secure"]);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it("takes the remaining lifetime, rounded down, never negative", () => {
    expect(attributesOf(sessionCookie("tok", false, 90_999))).toContain("Max-Age=90");
    expect(attributesOf(sessionCookie("tok", false, -5))).toContain("Max-Age=0");
  });

  it("clearing sets an empty value with Max-Age=0 and the same attributes", () => {
    const cleared = clearedSessionCookie(true);
    expect(cleared.startsWith(`${SECURE_SESSION_COOKIE}=;`)).toBe(true);
    expect(clearedSessionCookie(false).startsWith(`${SESSION_COOKIE}=;`)).toBe(true);
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
    expect(readSessionCookie(new Headers(header === undefined ? {} : { cookie: header }), false)).toBe(expected);
  });

  it("over HTTPS reads only __Host-sluice_session: a plain sluice_session (which a sibling subdomain can plant) is ignored", () => {
    const planted = new Headers({ cookie: `${SESSION_COOKIE}=planted; ${SECURE_SESSION_COOKIE}=mine` });
    expect(readSessionCookie(planted, true)).toBe("mine");
    expect(readSessionCookie(new Headers({ cookie: `${SESSION_COOKIE}=planted` }), true)).toBeNull();
    expect(readSessionCookie(new Headers({ cookie: `${SECURE_SESSION_COOKIE}=mine` }), false)).toBeNull();
  });
});
