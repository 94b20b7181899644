import { describe, expect, it } from "vitest";
import { clearedPendingSsoCookie, pendingSsoCookie, readPendingSso } from "./ssoPendingCookie";

const pending = { state: "st", nonce: "no", verifier: "ve", redirectUri: "http://127.0.0.1/cb", next: "/audit" };
const headersWith = (setCookie: string) => new Headers({ cookie: `other=1; ${setCookie.split(";")[0]}` });

describe("ssoPendingCookie", () => {
  it("round-trips the pending login, HttpOnly and Lax, Secure with the __Host- name over HTTPS", () => {
    const plain = pendingSsoCookie(pending, false);
    expect(plain).toMatch(/^sluice_sso=[\w-]+; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax$/);
    expect(readPendingSso(headersWith(plain), false)).toEqual(pending);
    const secure = pendingSsoCookie(pending, true);
    expect(secure).toMatch(/^__Host-sluice_sso=.*; Secure$/);
    expect(readPendingSso(headersWith(secure), true)).toEqual(pending);
    expect(readPendingSso(headersWith(plain), true)).toBeNull();
  });

  it("reads a missing, cleared or malformed cookie as no pending login", () => {
    expect(readPendingSso(new Headers(), false)).toBeNull();
    expect(readPendingSso(headersWith(clearedPendingSsoCookie(false)), false)).toBeNull();
    expect(readPendingSso(new Headers({ cookie: "sluice_sso=not-json" }), false)).toBeNull();
    const partial = Buffer.from(JSON.stringify({ ...pending, nonce: 5 })).toString("base64url");
    expect(readPendingSso(new Headers({ cookie: `sluice_sso=${partial}` }), false)).toBeNull();
  });
});
