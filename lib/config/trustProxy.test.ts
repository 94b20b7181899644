import { describe, expect, it } from "vitest";
import { isTrustedProxy, parseTrustProxy } from "./trustProxy";

describe("parseTrustProxy (SLUICE_TRUST_PROXY)", () => {
  it.each([
    [undefined, { hops: 0 }],
    ["", { hops: 0 }],
    ["0", { hops: 0 }],
    [" 2 ", { hops: 2 }],
    ["32", { hops: 32 }],
  ])("%j is a hop count: %j", (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  it("a list of addresses and CIDR blocks is the proxies, whoever else connects", () => {
    const trust = parseTrustProxy(" 127.0.0.2 , 10.0.0.0/8,::1, 2001:db8::/32");
    expect("proxies" in trust && trust.proxies).toHaveLength(4);
    expect(isTrustedProxy(trust, "127.0.0.2", 0)).toBe(true);
    expect(isTrustedProxy(trust, "10.200.1.1", 7)).toBe(true);
    expect(isTrustedProxy(trust, "::ffff:10.0.0.1", 0)).toBe(true);
    expect(isTrustedProxy(trust, "::1", 0)).toBe(true);
    expect(isTrustedProxy(trust, "2001:db8:1::5", 0)).toBe(true);
    expect(isTrustedProxy(trust, "127.0.0.1", 0)).toBe(false);
    expect(isTrustedProxy(trust, "11.0.0.1", 0)).toBe(false);
    expect(isTrustedProxy(trust, "unknown", 0)).toBe(false);
  });

  it("a hop count trusts the first n addresses from Sluice, whoever they are", () => {
    const trust = parseTrustProxy("2");
    expect([0, 1, 2].map((hop) => isTrustedProxy(trust, "203.0.113.1", hop))).toEqual([true, true, false]);
  });

  it.each([
    ["33", /SLUICE_TRUST_PROXY must be a hop count from 0 to 32, got "33"/],
    ["-1", /SLUICE_TRUST_PROXY: "-1" is not an address or CIDR range/],
    ["1.5", /SLUICE_TRUST_PROXY: "1.5" is not an address or CIDR range/],
    ["true", /SLUICE_TRUST_PROXY: "true" is not an address or CIDR range/],
    ["127.0.0.1,1", /SLUICE_TRUST_PROXY: "1" is not an address or CIDR range/],
    ["127.1", /"127.1" is not an address or CIDR range/],
    ["10.0.0.0/33", /"10.0.0.0\/33" is not an address or CIDR range/],
    ["10.0.0.0/x", /"10.0.0.0\/x" is not an address or CIDR range/],
    ["proxy.example.com", /"proxy.example.com" is not an address or CIDR range/],
    [" , ", /SLUICE_TRUST_PROXY: " , " lists no address/],
  ])("%j is refused, naming the variable and the entry", (raw, message) => {
    expect(() => parseTrustProxy(raw)).toThrow(message);
  });
});
