import { describe, expect, it } from "vitest";
import { loginPathFor, safeNextPath } from "./safeNextPath";

describe("safeNextPath keeps same-site paths and refuses everything else", () => {
  it.each([
    ["/", "/"],
    ["/audit", "/audit"],
    ["/audit?tenantId=aB3dE5fG", "/audit?tenantId=aB3dE5fG"],
    ["/tenants/aB3dE5fG#keys", "/tenants/aB3dE5fG#keys"],
    ["/keys/x/../../operators", "/operators"],
    ["/./audit", "/audit"],
    ["/audit%2Fx", "/audit%2Fx"],
    ["/tenants/a%20b", "/tenants/a%20b"],
  ])("%s → %s", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });

  it.each([
    [undefined],
    [null],
    [""],
    ["https://evil.example/"],
    ["//evil.example/path"],
    ["/\\evil.example"],
    ["\\\\evil.example"],
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["javascript:alert(1)"],
    ["audit"],
    ["/login"],
    ["/login?next=/audit"],
    ["/" + "a".repeat(3000)],
    // Paths that only become another host once normalised (the review's reproduction first).
    ["/.//evil.example"],
    ["/.//evil.example/steal?x=1"],
    ["/./\\evil.example"],
    ["/a/..//evil.example"],
    ["/..//evil.example"],
    ["/%2e//evil.example"],
    ["/%2E%2E//evil.example"],
    // Encoded slashes and backslashes that a later decode turns into `//` or `/\\`.
    ["/%2Fevil.example"],
    ["/%2fevil.example"],
    ["/%5Cevil.example"],
    ["/%5cevil.example"],
    ["/%252Fevil.example"],
    ["/%25252F%25252Fevil.example"],
    ["/%2F%2Fevil.example"],
    ["/%0A/evil.example"],
    ["/%E0%A4%A"],
    // Absolute URLs of every kind.
    ["http://evil.example"],
    ["HTTPS://evil.example/x"],
    ["//evil.example"],
    ["///evil.example"],
    ["/\\/evil.example"],
    ["https:evil.example"],
    ["data:text/html,hi"],
  ])("%j → /", (input) => {
    expect(safeNextPath(input)).toBe("/");
  });
});

describe("loginPathFor", () => {
  it("carries the page the operator was on", () => {
    expect(loginPathFor("/audit?tenantId=aB3dE5fG")).toBe("/login?next=%2Faudit%3FtenantId%3DaB3dE5fG");
  });
  it("needs no parameter for the overview", () => {
    expect(loginPathFor("/")).toBe("/login");
  });
});
