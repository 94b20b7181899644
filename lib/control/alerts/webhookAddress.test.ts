import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { parseAllowedRanges } from "../../config/addressRanges";
import { addressAllowed, guardedLookup, literalAddressProblem } from "./webhookAddress";

describe("addresses webhooks may reach", () => {
  it.each([
    ["93.184.215.14", true],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", true],
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["192.168.0.1", false],
    ["172.16.0.1", false],
    ["169.254.169.254", false],
    ["0.0.0.0", false],
    ["::1", false],
    ["fd00::1", false],
    ["fe80::1", false],
    ["::ffff:127.0.0.1", false],
    ["224.0.0.1", false],
    ["not an address", false],
  ])("%s: %s by default", (address, allowed) => {
    expect(addressAllowed(address, [])).toBe(allowed);
  });

  // Hardening 3: IPv4-compatible IPv6 (::/96) reached 127.0.0.1 written as `[::127.0.0.1]`, which
  // URL parsing turns into `[::7f00:1]` (ipaddr.js saw a public address); site-local (fec0::/10).
  it.each([
    ["::7f00:1", false],
    ["::127.0.0.1", false],
    ["0:0:0:0:0:0:127.0.0.1", false],
    ["::a00:5", false],
    ["::a9fe:a9fe", false],
    ["fec0::1", false],
    ["feff:ffff::1", false],
    ["[fec0::1]", false],
    ["::5db8:d70e", true],
  ])("IPv4-compatible and site-local: %s %s by default", (address, allowed) => {
    expect(addressAllowed(address, [])).toBe(allowed);
  });

  it("[::127.0.0.1] and [fec0::1] in a URL are refused before sending, and as a name's addresses", async () => {
    expect(literalAddressProblem(new URL("http://[::127.0.0.1]:9/x"), [])).toMatch(/address ::7f00:1 is not allowed/);
    expect(literalAddressProblem(new URL("http://[::169.254.169.254]/x"), [])).toMatch(/is not allowed/);
    expect(literalAddressProblem(new URL("http://[fec0::1]/x"), [])).toMatch(/address fec0::1 is not allowed/);
    for (const address of ["::7f00:1", "::127.0.0.1", "fec0::5"]) {
      const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        guardedLookup([], ((_h: string, _o: unknown, cb: (e: null, a: LookupAddress[]) => void) =>
          cb(null, [{ address, family: 6 }])) as never)("hooks.example.com", { all: true }, (e) => resolve(e)),
      );
      expect(error?.code, address).toBe("EADDRNOTALLOWED");
    }
  });

  it("an operator's allowed ranges open exactly those ranges", () => {
    const allowed = parseAllowedRanges(" 127.0.0.1 , 10.1.0.0/16,::1");
    expect(addressAllowed("127.0.0.1", allowed)).toBe(true);
    expect(addressAllowed("::ffff:127.0.0.1", allowed)).toBe(true);
    expect(addressAllowed("127.0.0.2", allowed)).toBe(false);
    expect(addressAllowed("10.1.200.1", allowed)).toBe(true);
    expect(addressAllowed("10.2.0.1", allowed)).toBe(false);
    expect(addressAllowed("::1", allowed)).toBe(true);
    expect(parseAllowedRanges("")).toEqual([]);
    expect(() => parseAllowedRanges("10.0.0.0/8,nope")).toThrow(/"nope" is not an address or CIDR range/);
  });

  it("IP literals in the URL are checked before sending; names are left to the lookup", () => {
    expect(literalAddressProblem(new URL("http://127.0.0.1:9/x"), [])).toMatch(/address 127.0.0.1 is not allowed/);
    expect(literalAddressProblem(new URL("http://[::1]/x"), [])).toMatch(/address ::1 is not allowed/);
    expect(literalAddressProblem(new URL("http://127.0.0.1:9/x"), parseAllowedRanges("127.0.0.1"))).toBeNull();
    expect(literalAddressProblem(new URL("https://hooks.example.com/x"), [])).toBeNull();
  });

  it("the lookup hands the socket only allowed addresses, and fails when none is (DNS rebinding included)", async () => {
    const resolving = (addresses: LookupAddress[]) =>
      ((_host: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
        callback(null, addresses)) as never;
    const lookup = (addresses: LookupAddress[], all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; result: unknown }>((resolve) =>
        guardedLookup([], resolving(addresses))("hooks.example.com", { all }, (error, address, family) =>
          resolve({ error, result: all ? address : [address, family] }),
        ),
      );
    const mixed = [
      { address: "10.0.0.5", family: 4 },
      { address: "93.184.215.14", family: 4 },
    ];
    expect(await lookup(mixed, false)).toEqual({ error: null, result: ["93.184.215.14", 4] });
    expect(await lookup(mixed, true)).toEqual({ error: null, result: [{ address: "93.184.215.14", family: 4 }] });
    const refused = await lookup([{ address: "169.254.169.254", family: 4 }], false);
    expect(refused.error?.code).toBe("EADDRNOTALLOWED");
  });
});
