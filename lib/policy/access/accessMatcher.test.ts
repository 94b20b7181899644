import { describe, expect, it } from "vitest";
import { compileAccessLists, parseClientAddress } from "./accessMatcher";

const matcher = (allow: string[], deny: string[] = []) => compileAccessLists({ allow, deny });

describe("AccessMatcher: IPv4", () => {
  it.each([
    ["a listed address", ["10.0.0.1"], "10.0.0.1", "allow"],
    ["the address next to a listed one", ["10.0.0.1"], "10.0.0.2", null],
    ["the first address of a /24", ["10.0.0.0/24"], "10.0.0.0", "allow"],
    ["the last address of a /24", ["10.0.0.0/24"], "10.0.0.255", "allow"],
    ["the address before a /24", ["10.0.1.0/24"], "10.0.0.255", null],
    ["the address after a /24", ["10.0.0.0/24"], "10.0.1.0", null],
    ["/0 holds everything", ["0.0.0.0/0"], "255.255.255.255", "allow"],
    ["a /32 holds its address", ["192.0.2.7/32"], "192.0.2.7", "allow"],
    ["the top of the space", ["255.255.255.255"], "255.255.255.255", "allow"],
    ["an IPv4-mapped IPv6 client matches an IPv4 entry", ["10.0.0.0/8"], "::ffff:10.9.8.7", "allow"],
    ["a mapped client in hex form too", ["10.0.0.0/8"], "::ffff:a09:807", "allow"],
    ["a mapped entry matches a plain IPv4 client", ["::ffff:10.0.0.0/104"], "10.1.2.3", "allow"],
    ["an IPv4-compatible client is not that IPv4 address", ["1.2.3.4"], "::1.2.3.4", null],
    ["an IPv4-compatible entry does not list the IPv4 address", ["::1.2.3.4"], "1.2.3.4", null],
    ["an IPv4-compatible entry matches that client, in either form", ["::1.2.3.4"], "::102:304", "allow"],
    ["an IPv4-compatible client in dotted form", ["::102:304"], "::1.2.3.4", "allow"],
  ])("%s", (_name, allow, ip, expected) => {
    expect(matcher(allow).verdict(ip, undefined)).toBe(expected);
  });
});

describe("AccessMatcher: IPv6", () => {
  it.each([
    ["a listed address in another spelling", ["2001:db8::1"], "2001:0db8:0:0:0:0:0:1", "allow"],
    ["the first address of a /64", ["2001:db8:0:1::/64"], "2001:db8:0:1::", "allow"],
    ["the last address of a /64", ["2001:db8:0:1::/64"], "2001:db8:0:1:ffff:ffff:ffff:ffff", "allow"],
    ["just past a /64", ["2001:db8:0:1::/64"], "2001:db8:0:2::", null],
    ["just before a /64", ["2001:db8:0:1::/64"], "2001:db8:0:0:ffff:ffff:ffff:ffff", null],
    ["::/0 holds every IPv6 address", ["::/0"], "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "allow"],
    ["::/0 does not hold an IPv4 client", ["::/0"], "10.0.0.1", null],
    ["an IPv4 entry does not hold an IPv6 client", ["0.0.0.0/0"], "2001:db8::1", null],
    ["a zone id on the client is ignored", ["fe80::1"], "fe80::1%eth0", "allow"],
  ])("%s", (_name, allow, ip, expected) => {
    expect(matcher(allow).verdict(ip, undefined)).toBe(expected);
  });
});

describe("AccessMatcher: keys, precedence and merging", () => {
  it("a key entry matches that key's requests from any address", () => {
    const m = matcher(["key:AbCd1234"]);
    expect(m.verdict("203.0.113.9", "AbCd1234")).toBe("allow");
    expect(m.verdict("203.0.113.9", "abcd1234")).toBeNull();
    expect(m.verdict("203.0.113.9", undefined)).toBeNull();
  });

  it("deny wins over allow, whether by address or by key", () => {
    expect(matcher(["10.0.0.0/8"], ["10.1.0.0/16"]).verdict("10.1.2.3", undefined)).toBe("deny");
    expect(matcher(["10.0.0.0/8"], ["10.1.0.0/16"]).verdict("10.2.2.3", undefined)).toBe("allow");
    expect(matcher(["10.0.0.0/8"], ["key:AbCd1234"]).verdict("10.0.0.1", "AbCd1234")).toBe("deny");
    expect(matcher(["key:AbCd1234"], ["10.0.0.1"]).verdict("10.0.0.1", "AbCd1234")).toBe("deny");
  });

  it("overlapping and adjacent blocks are merged without losing an address", () => {
    const m = matcher(["10.0.0.0/25", "10.0.0.128/25", "10.0.0.64/26", "10.0.2.0/24", "10.0.0.5"]);
    for (const ip of ["10.0.0.0", "10.0.0.127", "10.0.0.128", "10.0.0.255", "10.0.2.0", "10.0.2.255"])
      expect(m.verdict(ip, undefined)).toBe("allow");
    for (const ip of ["10.0.1.0", "10.0.1.255", "10.0.3.0"]) expect(m.verdict(ip, undefined)).toBeNull();
  });

  it("1,000 scattered entries: every listed address found, every gap missed", () => {
    const entries = Array.from({ length: 1000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/25`);
    const m = matcher([], entries);
    for (let i = 0; i < 1000; i += 37) {
      expect(m.verdict(`10.${i >> 8}.${i & 255}.127`, undefined)).toBe("deny");
      expect(m.verdict(`10.${i >> 8}.${i & 255}.128`, undefined)).toBeNull();
    }
  });

  it("empty lists decide nothing, and anything that is not an address matches no address entry", () => {
    expect(matcher([]).empty).toBe(true);
    expect(matcher([]).verdict("10.0.0.1", "AbCd1234")).toBeNull();
    expect(matcher(["0.0.0.0/0", "::/0"]).verdict("unknown", undefined)).toBeNull();
    expect(matcher(["0.0.0.0/0"]).verdict("10.0.0.256", undefined)).toBeNull();
  });
});

describe("parseClientAddress", () => {
  it("reads IPv4 as a number and IPv6 as a bigint", () => {
    expect(parseClientAddress("1.2.3.4")).toBe(0x01020304);
    expect(parseClientAddress("255.255.255.255")).toBe(0xffffffff);
    expect(parseClientAddress("::1")).toBe(1n);
    expect(parseClientAddress("::ffff:1.2.3.4")).toBe(0x01020304);
    expect(parseClientAddress("example.com")).toBeNull();
  });
});
