import { describe, expect, it } from "vitest";
import { ADDRESS_CACHE_MAX, limitingAddress } from "./limitingAddress";

describe("limitingAddress", () => {
  it.each([
    ["IPv4 counts per address", "203.0.113.7", "203.0.113.7"],
    ["IPv4-mapped IPv6 is that IPv4 address (dotted)", "::ffff:203.0.113.7", "203.0.113.7"],
    ["IPv4-mapped IPv6 is that IPv4 address (hex)", "::ffff:cb00:7107", "203.0.113.7"],
    ["IPv6 counts per /64", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["leading zeros and upper case do not make another subject", "2001:0DB8:0001:0002::1", "2001:db8:1:2::/64"],
    ["a compressed run inside the /64", "2001:db8::1", "2001:db8:0:0::/64"],
    ["loopback", "::1", "0:0:0:0::/64"],
    ["a zone id is dropped", "fe80::1%eth0", "fe80:0:0:0::/64"],
    ["an address that is not one stays as it is", "unknown", "unknown"],
  ])("%s: %s -> %s", (_, address, expected) => {
    expect(limitingAddress(address)).toBe(expected);
    expect(limitingAddress(address)).toBe(expected); // again, from the addresses already mapped
  });

  it("maps every address right past the bound of the addresses it keeps", () => {
    for (let i = 0; i <= ADDRESS_CACHE_MAX; i++) limitingAddress(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(limitingAddress("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(limitingAddress("10.0.39.16")).toBe("10.0.39.16");
    expect(limitingAddress(`2001:db8::1%${"z".repeat(80)}`)).toBe("2001:db8:0:0::/64"); // too long to keep, still mapped
  });

  it("one host rotating through its /64 stays one subject; the neighbouring /64 is another", () => {
    const rotated = new Set(
      Array.from({ length: 50 }, (_, i) =>
        limitingAddress(`2001:db8:5:6:${i.toString(16)}:${((i * 7919) % 0x10000).toString(16)}::${i + 1}`),
      ),
    );
    expect([...rotated]).toEqual(["2001:db8:5:6::/64"]);
    expect(limitingAddress("2001:db8:5:7::1")).not.toBe(limitingAddress("2001:db8:5:6::1"));
  });

  it("is stable: its output maps to itself", () => {
    for (const address of ["203.0.113.7", "::ffff:10.0.0.1", "2001:db8::1", "unknown"]) {
      const once = limitingAddress(address);
      expect(limitingAddress(once)).toBe(once);
    }
  });
});
