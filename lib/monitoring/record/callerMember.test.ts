import { describe, expect, it } from "vitest";
import { callerOf, callerOfMember } from "./callerMember";

const T = "Tenant01";

describe("a request's caller in the hot-callers sets", () => {
  it("an API key by its id, a JWT subject by its safe id, an anonymous caller by its address", () => {
    expect(callerOf(T, "KeyId001", "10.0.0.1")).toEqual({ member: "KeyId001", kind: "key" });
    expect(callerOf(T, "~auth0|64f1c2", "10.0.0.1")).toEqual({ member: "~auth0|64f1c2", kind: "jwt" });
    expect(callerOf(T, "~#abcdefghijklmnopqrstuv", undefined)).toEqual({
      member: "~#abcdefghijklmnopqrstuv",
      kind: "jwt",
    });
    expect(callerOf(T, undefined, "203.0.113.7")).toEqual({ member: "@203.0.113.7", kind: "anonymous" });
    expect(callerOf(T, undefined, "2001:db8::1")).toEqual({ member: "@2001:db8::1", kind: "anonymous" });
  });

  it("no caller: a pseudo-tenant's anonymous traffic, no address, a malformed id or address", () => {
    expect(callerOf("-anon", undefined, "203.0.113.7")).toBeNull();
    expect(callerOf(T, undefined, undefined)).toBeNull();
    expect(callerOf(T, "bad key", undefined)).toBeNull();
    expect(callerOf(T, "~a/b", undefined)).toBeNull();
    expect(callerOf(T, `~${"x".repeat(65)}`, undefined)).toBeNull();
    expect(callerOf(T, undefined, "10.0.0.1/8")).toBeNull();
  });

  it("read back with its kind, the mark taken off", () => {
    expect(callerOfMember("KeyId001")).toEqual({ kind: "key", caller: "KeyId001" });
    expect(callerOfMember("~alice@example.com")).toEqual({ kind: "jwt", caller: "alice@example.com" });
    expect(callerOfMember("@2001:db8::1")).toEqual({ kind: "anonymous", caller: "2001:db8::1" });
  });
});
