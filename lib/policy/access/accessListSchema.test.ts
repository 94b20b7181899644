import { describe, expect, it } from "vitest";
import { fieldErrors } from "../../http/validate";
import { MAX_ACCESS_ENTRIES } from "../../common/fieldLimits";
import { accessListsSchema } from "./accessListSchema";

const errorsOf = (input: unknown) => {
  const parsed = accessListsSchema.safeParse(input);
  if (parsed.success) throw new Error("expected a failure");
  return fieldErrors(parsed.error);
};

describe("accessListsSchema", () => {
  it("stores entries canonical and without repeats, in the order given", () => {
    const parsed = accessListsSchema.parse({
      allow: [
        " 10.0.0.0/8 ",
        "2001:DB8:0:0::1",
        "::ffff:192.0.2.1",
        "KEY:AbCd1234",
        "10.0.0.0/8",
        "::ffff:10.0.0.0/104",
      ],
      deny: ["2001:db8::/32"],
    });
    expect(parsed).toEqual({
      allow: ["10.0.0.0/8", "2001:db8::1", "192.0.2.1", "key:AbCd1234"],
      deny: ["2001:db8::/32"],
    });
  });

  // Hardening 3: ipaddr.js reads `::1.2.3.4` (IPv4-compatible) as `::ffff:1.2.3.4`, so it was
  // stored as 1.2.3.4, listing an address the operator never typed.
  it("an IPv4-compatible entry (::1.2.3.4) stays IPv6 (::102:304); only the mapped form is IPv4", () => {
    expect(
      accessListsSchema.parse({
        allow: ["::1.2.3.4", "::10.0.0.0/104", "0:0:0:0:0:0:1.2.3.5", "::ffff:1.2.3.4"],
        deny: [],
      }).allow,
    ).toEqual(["::102:304", "::a00:0/104", "::102:305", "1.2.3.4"]);
    expect(Object.values(errorsOf({ allow: ["::1.2.3.300"], deny: [] })).flat()[0]).toMatch(
      /is not an IPv4 or IPv6 address/,
    );
  });

  it.each([
    ["an address out of range", "10.0.0.256", "is not an IPv4 or IPv6 address"],
    ["a short IPv4 form", "127.1", "is not an IPv4 or IPv6 address"],
    ["a host name", "example.com", "is not an IPv4 or IPv6 address"],
    ["a prefix too long for IPv4", "10.0.0.0/33", "prefix length outside 0..32"],
    ["a prefix too long for IPv6", "2001:db8::/129", "prefix length outside 0..128"],
    ["a prefix that is no number", "10.0.0.0/x", "prefix length"],
    ["host bits set (IPv4)", "10.1.2.3/8", "the block is 10.0.0.0/8"],
    ["host bits set (IPv6)", "2001:db8::1/32", "the block is 2001:db8::/32"],
    ["a zone id", "fe80::1%eth0", "zone id"],
    ["a key id of the wrong length", "key:abc", "8-character key id"],
    ["an empty entry", "  ", "is empty"],
  ])("422 names the entry: %s", (_name, entry, message) => {
    const errors = errorsOf({ allow: ["10.0.0.1", entry], deny: [] });
    expect(Object.keys(errors)).toEqual(["allow.1"]);
    expect(errors["allow.1"]![0]).toContain(JSON.stringify(entry));
    expect(errors["allow.1"]![0]).toContain(message);
  });

  it("refuses more than 1,000 entries in a list, and accepts 1,000", () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    expect(accessListsSchema.safeParse({ allow: [], deny: many(MAX_ACCESS_ENTRIES) }).success).toBe(true);
    expect(errorsOf({ allow: [], deny: many(MAX_ACCESS_ENTRIES + 1) }).deny![0]).toContain("at most 1,000");
  });

  it("needs both lists, and nothing else", () => {
    expect(Object.keys(errorsOf({ deny: [] }))).toEqual(["allow"]);
    expect(Object.keys(errorsOf({ allow: [], deny: [], extra: 1 }))).toEqual([""]);
    expect(Object.keys(errorsOf({ allow: [1], deny: [] }))).toEqual(["allow.0"]);
  });
});
