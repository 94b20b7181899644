import { describe, expect, it } from "vitest";
import { claimValues, mapRole, type RoleMapping } from "./ssoRoles";

const mapping: RoleMapping = { roleClaim: "groups", adminValues: ["sluice-admins"], viewerValues: ["sluice-viewers"] };

describe("claimValues", () => {
  it.each([
    ["a string is one value", { groups: "ops" }, "groups", ["ops"]],
    ["a list keeps its strings only", { groups: ["a", 1, null, "b"] }, "groups", ["a", "b"]],
    ["a missing claim is no value", {}, "groups", []],
    ["an object is no value", { groups: { a: 1 } }, "groups", []],
    ["a dotted path reaches into objects (Keycloak)", { realm_access: { roles: ["x"] } }, "realm_access.roles", ["x"]],
    [
      "a whole name with dots wins over the path (Auth0)",
      { "https://ex.com/roles": ["r"] },
      "https://ex.com/roles",
      ["r"],
    ],
    ["a path through a list stops", { realm_access: [{ roles: ["x"] }] }, "realm_access.roles", []],
    ["inherited properties are not claims", {}, "constructor", []],
  ])("%s", (_name, claims, claim, expected) => {
    expect(claimValues(claims as Record<string, unknown>, claim)).toEqual(expected);
  });
});

describe("mapRole", () => {
  it("an admin value makes an admin, even next to a viewer value", () => {
    expect(mapRole({ groups: ["sluice-viewers", "sluice-admins"] }, mapping)).toBe("admin");
  });
  it("a viewer value makes a viewer", () => {
    expect(mapRole({ groups: ["staff", "sluice-viewers"] }, mapping)).toBe("viewer");
  });
  it("a claim mapping to nothing gives no role", () => {
    expect(mapRole({ groups: ["staff"] }, mapping)).toBeNull();
    expect(mapRole({}, mapping)).toBeNull();
  });
  it("values compare exactly, case included", () => {
    expect(mapRole({ groups: ["Sluice-Admins"] }, mapping)).toBeNull();
  });
  it("a viewer list of * lets every user in as a viewer, and admins still as admins", () => {
    const open = { ...mapping, viewerValues: ["*"] };
    expect(mapRole({}, open)).toBe("viewer");
    expect(mapRole({ groups: "sluice-admins" }, open)).toBe("admin");
  });
});
