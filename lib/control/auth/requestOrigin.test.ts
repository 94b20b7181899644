import { describe, expect, it, vi } from "vitest";
import { parseTrustProxy } from "../../config/trustProxy";
import { TRUST_NO_PROXY as NO_PROXY } from "../../config/trustProxy";
import { isHttpsRequest, isStateChanging, originCheck, requestOrigin } from "./requestOrigin";

const PEER_SECRET = "peer-secret-of-the-test";

function req(url: string, headers: Record<string, string> = {}, method = "POST"): Request {
  return new Request(url, { method, headers });
}

describe("requestOrigin", () => {
  it.each([
    ["the URL without a Host header", "http://test.local/api", {}, 0, "http://test.local"],
    [
      "the Host header over the URL",
      "http://127.0.0.1:3000/api",
      { host: "sluice.example.com:3000" },
      0,
      "http://sluice.example.com:3000",
    ],
    ["an https URL, default port dropped", "https://sluice.example.com:443/api", {}, 0, "https://sluice.example.com"],
    [
      "forwarded headers ignored without trusted proxies",
      "http://internal:3000/api",
      { host: "internal:3000", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" },
      0,
      "http://internal:3000",
    ],
    [
      "forwarded proto and host behind a trusted proxy",
      "http://internal:3000/api",
      { host: "internal:3000", "x-forwarded-proto": "https", "x-forwarded-host": "sluice.example.com" },
      1,
      "https://sluice.example.com",
    ],
    ["the first forwarded value", "http://internal/api", { "x-forwarded-proto": "https, http" }, 1, "https://internal"],
  ])("%s", (_, url, headers, hops, expected) => {
    expect(requestOrigin(req(url, headers), { hops })).toBe(expected);
  });
});

describe("isHttpsRequest (the cookie's Secure flag)", () => {
  it.each([
    ["plain http", "http://a/x", {}, 0, false],
    ["https URL", "https://a/x", {}, 0, true],
    ["x-forwarded-proto https, untrusted", "http://a/x", { "x-forwarded-proto": "https" }, 0, false],
    ["x-forwarded-proto https, one trusted hop", "http://a/x", { "x-forwarded-proto": "https" }, 1, true],
    ["x-forwarded-proto http behind a proxy of an https URL", "https://a/x", { "x-forwarded-proto": "http" }, 1, false],
  ])("%s → %s", (_, url, headers, hops, expected) => {
    expect(isHttpsRequest(req(url, headers), { hops })).toBe(expected);
  });
});

describe("originCheck (CSRF)", () => {
  const url = "http://sluice.test:3000/api/admin/tenants";
  it.each([
    ["same Origin", { origin: "http://sluice.test:3000" }, "same"],
    ["same Origin, host in upper case", { origin: "http://SLUICE.test:3000" }, "same"],
    ["no Origin, same-origin Referer", { referer: "http://sluice.test:3000/tenants/abc?x=1" }, "same"],
    ["neither header", {}, "missing"],
    ["another host", { origin: "http://evil.test:3000" }, "cross"],
    ["another port", { origin: "http://sluice.test:3001" }, "cross"],
    ["another scheme", { origin: "https://sluice.test:3000" }, "cross"],
    ["a sibling subdomain (same site, other origin)", { origin: "http://app.sluice.test:3000" }, "cross"],
    ["Origin: null (sandboxed or privacy-stripped)", { origin: "null" }, "cross"],
    ["a malformed Origin", { origin: "not a url" }, "cross"],
    [
      "Origin wins over a same-origin Referer",
      { origin: "http://evil.test", referer: "http://sluice.test:3000/" },
      "cross",
    ],
    ["a cross-origin Referer", { referer: "http://evil.test/page" }, "cross"],
    ["a look-alike prefix", { origin: "http://sluice.test:3000.evil.test" }, "cross"],
  ])("%s → %s", (_, headers, expected) => {
    expect(originCheck(req(url, headers), NO_PROXY)).toBe(expected);
  });

  it("compares with the Host header the browser used", () => {
    expect(
      originCheck(
        req("http://127.0.0.1:3000/api", { host: "localhost:3000", origin: "http://localhost:3000" }),
        NO_PROXY,
      ),
    ).toBe("same");
    expect(
      originCheck(
        req("http://127.0.0.1:3000/api", { host: "localhost:3000", origin: "http://127.0.0.1:3000" }),
        NO_PROXY,
      ),
    ).toBe("cross");
  });

  it("behind a TLS proxy, an https page is this origin", () => {
    const behindProxy = req("http://10.0.0.5:3000/api", {
      host: "sluice.example.com",
      "x-forwarded-proto": "https",
      origin: "https://sluice.example.com",
    });
    expect(originCheck(behindProxy, { hops: 1 })).toBe("same");
    expect(originCheck(behindProxy, NO_PROXY)).toBe("cross");
  });
});

describe("isStateChanging", () => {
  it.each([
    ["GET", false],
    ["HEAD", false],
    ["OPTIONS", false],
    ["POST", true],
    ["PUT", true],
    ["PATCH", true],
    ["DELETE", true],
    ["delete", true],
  ])("%s → %s", (method, expected) => {
    expect(isStateChanging(method)).toBe(expected);
  });

  it("a list of proxies: only a listed connection's X-Forwarded-Proto and -Host count (Sluice's server vouches for it)", () => {
    const trust = parseTrustProxy("127.0.0.2");
    const from = (peer: string, auth = PEER_SECRET) =>
      req("http://127.0.0.1:3000/api", {
        host: "127.0.0.1:3000",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "sluice.example.com",
        "x-sluice-peer": peer,
        "x-sluice-peer-auth": auth,
      });
    vi.stubEnv("SLUICE_PEER_SECRET", PEER_SECRET);
    try {
      expect(requestOrigin(from("127.0.0.2"), trust)).toBe("https://sluice.example.com");
      expect(requestOrigin(from("127.0.0.1"), trust)).toBe("http://127.0.0.1:3000");
      expect(isHttpsRequest(from("127.0.0.1"), trust)).toBe(false);
      // A local process on the control plane's socket without the secret: no forwarded header counts.
      expect(requestOrigin(from("127.0.0.2", "guess"), { hops: 1 })).toBe("http://127.0.0.1:3000");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
