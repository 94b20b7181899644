import { describe, expect, it } from "vitest";
import { callerHref } from "@/components/tables/entityLinks";
import { callerFromSegment, callerTitle } from "./callerPath";

describe("the caller page's address", () => {
  it("encodes a JWT subject, a hashed one and an IPv6 address, and reads them back", () => {
    for (const member of ["~alice@example.com", "~#abcdefghijklmnopqrstuv", "@2001:db8::7", "@10.0.0.1"]) {
      const href = callerHref("TenantA1", member);
      const segment = href.split("/").pop()!;
      expect(callerFromSegment(segment)).toBe(member);
      expect(callerFromSegment(decodeURIComponent(segment))).toBe(member);
    }
    expect(callerHref("TenantA1", "@2001:db8::7")).toBe("/tenants/TenantA1/callers/%402001%3Adb8%3A%3A7");
  });

  it("names no caller for what is not one", () => {
    expect(callerFromSegment("a%2Fb")).toBeNull();
    expect(callerFromSegment("%E0%A4%A")).toBeNull();
    expect(callerFromSegment("~")).toBeNull();
  });

  it("says what the caller is in words", () => {
    expect(callerTitle("~alice@example.com")).toBe("JWT subject alice@example.com");
    expect(callerTitle("~#abc")).toBe("JWT subject (hash abc)");
    expect(callerTitle("@2001:db8::7")).toBe("Anonymous IP 2001:db8::7");
    expect(callerTitle("KeyA1")).toBe("API key KeyA1");
  });
});
