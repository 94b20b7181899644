import { afterEach, describe, expect, it, vi } from "vitest";
import { parseTrustProxy, type TrustProxy } from "../config/trustProxy";
import { clientIp, clientOriginOf, PEER_AUTH_HEADER, PEER_HEADER, requestClient } from "./clientIp";

const SECRET = "s3cret";
const headers = (h: Record<string, string>) => new Headers(h);
const fromServer = (peer: string, xff?: string) =>
  headers({ [PEER_HEADER]: peer, [PEER_AUTH_HEADER]: SECRET, ...(xff ? { "x-forwarded-for": xff } : {}) });
const hops = (n: number): TrustProxy => ({ hops: n });

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
  ])("%s", (_, h, n, expected) => {
    expect(clientIp(h, hops(n), SECRET)).toBe(expected);
  });

  it("ignores a peer header without the server's secret (a client cannot forge it)", () => {
    const forged = headers({ [PEER_HEADER]: "9.9.9.9", [PEER_AUTH_HEADER]: "guess", "x-forwarded-for": "10.1.1.1" });
    expect(clientIp(forged, hops(1), SECRET)).toBe("unknown");
  });
});

describe("clientOriginOf with a list of proxies: X-Forwarded-For read right to left, trusted proxies skipped", () => {
  const trust = parseTrustProxy("127.0.0.2, 10.0.0.0/8, fd00::/8");
  it.each([
    [
      "a direct client is taken at its address, whatever it forges",
      "6.6.6.6, 10.0.0.1",
      "203.0.113.5",
      "203.0.113.5",
      false,
    ],
    ["a direct client on loopback, not listed, too", "198.51.100.1", "127.0.0.1", "127.0.0.1", false],
    ["one listed proxy: the entry it appended", "6.6.6.6, 203.0.113.7", "127.0.0.2", "203.0.113.7", true],
    [
      "listed proxies in the chain are skipped",
      "6.6.6.6, 203.0.113.7, 10.1.2.3, 10.0.0.4",
      "127.0.0.2",
      "203.0.113.7",
      true,
    ],
    [
      "the first unlisted entry from the right wins, not the left-most",
      "10.0.0.8, 203.0.113.7, 10.0.0.4",
      "127.0.0.2",
      "203.0.113.7",
      true,
    ],
    ["every entry a proxy: the left-most", "10.0.0.9, 10.0.0.4", "127.0.0.2", "10.0.0.9", true],
    ["a listed proxy without X-Forwarded-For is itself the client", undefined, "10.0.0.4", "10.0.0.4", true],
    ["IPv6 proxies and clients", "2001:db8::1, fd00::2", "::ffff:127.0.0.2", "2001:db8::1", true],
    ["a mapped IPv4 connection is judged as IPv4", "203.0.113.7", "::ffff:10.9.9.9", "203.0.113.7", true],
  ])("%s", (_, xff, peer, ip, viaTrustedProxy) => {
    expect(clientOriginOf(xff, peer, trust)).toEqual({ ip, viaTrustedProxy });
  });
});

describe("an X-Forwarded-For entry that is no address: the trusted proxy that passed it on is the client", () => {
  it.each([
    ["hop count, the proxy's own entry", "unknown", hops(1), "10.0.0.1"],
    ["hop count, a nearer proxy's entry", "203.0.113.7, unix:, 10.0.0.2", hops(3), "10.0.0.2"],
    ["hop count, garbage a client varies per request", "203.0.113.7, user-1234", hops(1), "10.0.0.1"],
    ["list, behind a listed proxy", "6.6.6.6, _hidden, 10.0.0.2", parseTrustProxy("10.0.0.0/8"), "10.0.0.2"],
    ["an address with a port is still an address", "203.0.113.7:4711", hops(1), "203.0.113.7"],
  ])("%s", (_, xff, trust, expected) => {
    expect(clientOriginOf(xff, "10.0.0.1", trust).ip).toBe(expected);
  });
});

describe("requestClient: a Next route handler's client", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("with the server's secret set, a request without its proof is unknown and no forwarded header counts", () => {
    const local = headers({ "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" });
    expect(requestClient(local, hops(1), SECRET)).toEqual({ ip: "unknown", viaTrustedProxy: false });
    const noAuth = headers({ [PEER_HEADER]: "127.0.0.1", "x-forwarded-for": "203.0.113.9" });
    expect(requestClient(noAuth, hops(1), SECRET)).toEqual({ ip: "unknown", viaTrustedProxy: false });
  });

  it("in production without Sluice's server: unknown too", () => {
    vi.stubEnv("NODE_ENV", "production");
    expect(requestClient(headers({ "x-forwarded-for": "203.0.113.9" }), hops(1), undefined).ip).toBe("unknown");
  });

  it("outside production without Sluice's server (route tests, a bare next dev): X-Forwarded-For's last entry, best effort", () => {
    vi.stubEnv("NODE_ENV", "test");
    expect(requestClient(headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" }), hops(0), undefined)).toEqual({
      ip: "203.0.113.9",
      viaTrustedProxy: false,
    });
    expect(requestClient(headers({}), hops(1), undefined)).toEqual({ ip: "unknown", viaTrustedProxy: true });
  });

  it("with the proof: the list form believes only a listed connection", () => {
    const trust = parseTrustProxy("127.0.0.2");
    expect(requestClient(fromServer("127.0.0.1", "203.0.113.9"), trust, SECRET)).toEqual({
      ip: "127.0.0.1",
      viaTrustedProxy: false,
    });
    expect(requestClient(fromServer("127.0.0.2", "203.0.113.9"), trust, SECRET)).toEqual({
      ip: "203.0.113.9",
      viaTrustedProxy: true,
    });
  });
});
