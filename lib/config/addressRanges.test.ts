import { describe, expect, it } from "vitest";
import { isLinkLocal, isPublicUnicast, parseIPv6, socketAddress } from "./addressRanges";

describe("addressRanges: the address a socket reaches", () => {
  it.each([
    ["1.2.3.4", "1.2.3.4"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::ffff:169.254.169.254", "169.254.169.254"],
    ["::ffff:a9fe:a9fe", "169.254.169.254"],
    ["::169.254.169.254", "169.254.169.254"],
    ["::a9fe:a9fe", "169.254.169.254"],
    ["0:0:0:0:0:0:127.0.0.1", "127.0.0.1"],
    ["::1", "::1"],
    ["::", "::"],
    ["0x7f.1", "127.0.0.1"],
  ])("%s is %s", (text, address) => {
    expect(socketAddress(text)?.toString()).toBe(address);
  });

  it.each(["", "example.com", "1.2.3.256", "::1.2.3.256", ":::1", "1.2.3.4.5"])("%j is no address", (text) => {
    expect(socketAddress(text)).toBeNull();
  });

  it("parseIPv6 keeps `::1.2.3.4` IPv4-compatible (ipaddr.js alone reads it as IPv4-mapped)", () => {
    expect(parseIPv6("::1.2.3.4")?.toRFC5952String()).toBe("::102:304");
    expect(parseIPv6("::ffff:1.2.3.4")?.toRFC5952String()).toBe("::ffff:102:304");
    expect(parseIPv6("1.2.3.4")).toBeNull();
    expect(parseIPv6("fe80::1%eth0")).toBeNull();
  });

  it("classes", () => {
    const of = (text: string) => socketAddress(text)!;
    expect(isLinkLocal(of("169.254.0.1"))).toBe(true);
    expect(isLinkLocal(of("febf:ffff::1"))).toBe(true);
    expect(isLinkLocal(of("169.255.0.1"))).toBe(false);
    expect(isLinkLocal(of("fec0::1"))).toBe(false);
    expect(isPublicUnicast(of("93.184.215.14"))).toBe(true);
    expect(isPublicUnicast(of("fec0::1"))).toBe(false);
    expect(isPublicUnicast(of("::7f00:1"))).toBe(false);
    expect(isPublicUnicast(of("10.0.0.1"))).toBe(false);
  });
});
