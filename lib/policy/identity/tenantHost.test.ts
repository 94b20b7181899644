import { describe, expect, it } from "vitest";
import { hostLookupKey, normalizeTenantHost, tenantHostProblem } from "./tenantHost";

describe("tenantHostProblem", () => {
  it.each([
    "api.example.com",
    "API.Example.COM",
    "orders",
    "xn--bcher-kva.example",
    "a-b.c1.example.",
    " api.example.com ",
  ])("accepts %s", (host) => expect(tenantHostProblem(host)).toBeNull());

  it.each([
    ["", /empty/],
    ["api.example.com:8443", /port/],
    ["https://api.example.com", /scheme/],
    ["api.example.com/v1", /path/],
    ["*.example.com", /wildcard/],
    ["user@api.example.com", /userinfo/],
    ["10.0.0.7", /IP address/],
    ["[::1]", /IP address/],
    ["::1", /IP address/],
    ["bücher.example", /xn--/],
    ["-api.example.com", /DNS name/],
    ["api..example.com", /DNS name/],
    ["api_x.example.com", /DNS name/],
    [`${"a".repeat(64)}.example.com`, /DNS name/],
    [`${"a.".repeat(127)}com`, /253/],
  ])("refuses %j", (host, message) => expect(tenantHostProblem(host)).toMatch(message));
});

describe("normalizeTenantHost and hostLookupKey", () => {
  it("store lower case without a trailing dot", () => {
    expect(normalizeTenantHost(" API.Example.com. ")).toBe("api.example.com");
  });

  it("find a stored host whatever the port or case of the Host header", () => {
    expect(hostLookupKey("API.example.com:8443")).toBe("api.example.com");
    expect(hostLookupKey("api.example.com.")).toBe("api.example.com");
    expect(hostLookupKey("api.example.com.:80")).toBe("api.example.com");
    expect(hostLookupKey("api.example.com")).toBe("api.example.com");
    expect(hostLookupKey(undefined)).toBeUndefined();
  });

  it("leave IPv6 literals as they are (never a stored host)", () => {
    expect(hostLookupKey("[::1]:3000")).toBe("[::1]:3000");
  });
});
