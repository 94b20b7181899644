import { describe, expect, it } from "vitest";
import { gatewayPathOf, gatewayPathWarning } from "./gatewayPaths";

describe("a rule path under /api/v1 as the gateway path it stands for", () => {
  it.each([
    ["/api/v1/orders/*", false, "/orders/*"],
    ["/api/v1/**", false, "/**"],
    ["/api/v1", false, "/"],
    ["/api/v1/", false, "/"],
    ["/api/v1/*/items", false, "/*/items"],
    ["/api/v1/echoes", false, "/echoes"],
    ["/api/v1/checkout/**", false, "/checkout/**"],
    ["/api/v1/echo", false, null],
    ["/api/v1/echo/**", false, null],
    ["/api/v1/check", false, null],
    ["/api/v1/authorize", false, null],
    ["/orders/*", false, null],
    ["/api/v2/orders", false, null],
    ["/api/v10/x", false, null],
    ["/API/V1/orders", false, null],
    ["/API/V1/orders", true, "/orders"],
    ["/api/v1/ECHO/x", false, "/ECHO/x"],
    ["/api/v1/ECHO/x", true, null],
  ])("%s (any case: %s) -> %s", (path, caseInsensitive, expected) => {
    expect(gatewayPathOf(path, caseInsensitive)).toBe(expected);
  });

  it("warns with the path to write instead, and not for a path that is fine", () => {
    expect(gatewayPathWarning("/api/v1/orders/*")).toContain("(write /orders/*)");
    expect(gatewayPathWarning("/orders/*")).toBeNull();
    expect(gatewayPathWarning("/api/v1/echo/*")).toBeNull();
  });
});
