import { describe, expect, it } from "vitest";
import { rawPathAfter } from "./requestPath";
import { hostRouteOf, routeOf, rulePathOf } from "./requestRoute";

describe("the path a route's rules match: the path the protected API sees", () => {
  it.each([
    ["/api/v1/orders/42", "gateway", "/orders/42"],
    ["/api/v1/orders/42/", "gateway", "/orders/42/"],
    ["/api/v1/login", "gateway", "/login"],
    ["/api/v1", "gateway", "/"],
    ["/api/v1/", "gateway", "/"],
    ["/api/v1/echoes/1", "gateway", "/echoes/1"],
    ["/api/v1/checkout", "gateway", "/checkout"],
    ["/api/v1/api/v1/x", "gateway", "/api/v1/x"],
    ["/api/v1/echo", "echo", "/api/v1/echo"],
    ["/api/v1/echo/a/b", "echo", "/api/v1/echo/a/b"],
    ["/api/v1/echo/", "echo", "/api/v1/echo/"],
    ["/api/v1/check", "check", "/api/v1/check"],
    ["/api/v1/check/", "check", "/api/v1/check/"],
    ["/api/v1/authorize", "authorize", "/api/v1/authorize"],
  ])("%s is the %s route, its rules match %s", (path, route, rulePath) => {
    expect(routeOf(path)).toBe(route);
    expect(rulePathOf(routeOf(path), path)).toBe(rulePath);
  });

  it("on a tenant's host every path is matched as sent; only /api/v1/authorize keeps its meaning", () => {
    for (const path of ["/orders/42", "/api/v1/orders/42", "/api/v1/echo/x", "/api/v1/check", "/"]) {
      expect(hostRouteOf(path)).toBe("hosted");
      expect(rulePathOf("hosted", path)).toBe(path);
    }
    expect(hostRouteOf("/api/v1/authorize")).toBe("authorize");
  });

  it("the gateway's rule path is the forwarded path, decoded (as rawPathAfter(rawPath, 2) is forwarded)", () => {
    // Decoded paths as lib/dataplane/requestPath.ts gives them, beside the raw path forwarded.
    const cases: [raw: string, decoded: string][] = [
      ["/api/v1/orders/42", "/api/v1/orders/42"],
      ["/api/%761/orders/caf%C3%A9", "/api/v1/orders/café"],
      ["/api/v1/a/b/c", "/api/v1/a/b/c"],
    ];
    for (const [raw, decoded] of cases)
      expect(rulePathOf("gateway", decoded)).toBe(decodeURIComponent(rawPathAfter(raw, 2)));
  });
});
