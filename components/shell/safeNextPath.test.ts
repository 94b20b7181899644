import { describe, expect, it } from "vitest";
import { loginPathFor, safeNextPath } from "./safeNextPath";

describe("safeNextPath keeps same-site paths and refuses everything else", () => {
  it.each([
    ["/", "/"],
    ["/audit", "/audit"],
    ["/audit?tenantId=aB3dE5fG", "/audit?tenantId=aB3dE5fG"],
    ["/tenants/aB3dE5fG#keys", "/tenants/aB3dE5fG#keys"],
    ["/keys/x/../../operators", "/operators"],
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
