import { describe, expect, it } from "vitest";
import { clientIp, PEER_AUTH_HEADER, PEER_HEADER } from "./clientIp";

const SECRET = "s3cret";
const headers = (h: Record<string, string>) => new Headers(h);
const fromServer = (peer: string, xff?: string) =>
  headers({ [PEER_HEADER]: peer, [PEER_AUTH_HEADER]: SECRET, ...(xff ? { "x-forwarded-for": xff } : {}) });

describe("clientIp", () => {
  it.each([
    [
      "no proxy trusted: the socket address, whatever X-Forwarded-For says",
      fromServer("10.0.0.9", "1.2.3.4"),
      0,
      "10.0.0.9",
    ],
    ["one hop: the entry our proxy appended", fromServer("10.0.0.1", "6.6.6.6, 1.2.3.4"), 1, "1.2.3.4"],
    ["two hops", fromServer("10.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.2"), 2, "1.2.3.4"],
    ["more hops than entries: the left-most", fromServer("10.0.0.1", "1.2.3.4"), 5, "1.2.3.4"],
    ["an IPv4-mapped IPv6 address is plain IPv4", fromServer("::ffff:127.0.0.1"), 0, "127.0.0.1"],
    ["a port our proxy appended is dropped (IPv4)", fromServer("10.0.0.1", "1.2.3.4:51234"), 1, "1.2.3.4"],
    ["a port and brackets are dropped (IPv6)", fromServer("10.0.0.1", "[2001:db8::3]:443"), 1, "2001:db8::3"],
    ["brackets alone are dropped", fromServer("10.0.0.1", "[2001:db8::3]"), 1, "2001:db8::3"],
    ["a bare IPv6 address keeps its last group", fromServer("10.0.0.1", "2001:db8::3"), 1, "2001:db8::3"],
    ["a mapped address with a port", fromServer("10.0.0.1", "[::ffff:1.2.3.4]:80"), 1, "1.2.3.4"],
  ])("%s", (_, h, hops, expected) => {
    expect(clientIp(h, hops, SECRET)).toBe(expected);
  });

  it("ignores a peer header without the server's secret (a client cannot forge it)", () => {
    const forged = headers({ [PEER_HEADER]: "9.9.9.9", [PEER_AUTH_HEADER]: "guess", "x-forwarded-for": "10.1.1.1" });
    expect(clientIp(forged, 0, SECRET)).toBe("10.1.1.1");
    expect(clientIp(headers({ [PEER_HEADER]: "9.9.9.9" }), 0, undefined)).toBe("unknown");
  });
});
