import { describe, expect, it } from "vitest";
import { clientResponseHeaders, consumedCredential, upstreamRequestHeaders } from "./forwardHeaders";

const ctx = { clientIp: "192.0.2.1", viaTrustedProxy: false, proto: "https", tenantId: "TTTTTTTT", keyId: "KKKKKKKK" };

describe("consumedCredential: the header Sluice read the key from (the same precedence as presentedKey)", () => {
  it.each([
    [{ authorization: "Bearer sk_1" }, "authorization"],
    [{ authorization: "bearer   sk_1 " }, "authorization"],
    [{ authorization: "Bearer sk_1", "x-api-key": "other" }, "authorization"],
    [{ authorization: "Basic dTpw", "x-api-key": "sk_1" }, "x-api-key"],
    [{ "x-api-key": "sk_1" }, "x-api-key"],
    [{ authorization: "sk_1" }, "authorization"],
  ] as const)("%j: %s", (headers, consumed) => {
    expect(consumedCredential(headers)).toBe(consumed);
  });
});

describe("upstreamRequestHeaders", () => {
  it("drops hop-by-hop headers, those Connection lists, Proxy-*, Host, Expect and the consumed credential", () => {
    const out = upstreamRequestHeaders(
      {
        host: "gw.example",
        connection: "Keep-Alive, X-Listed , x-also",
        "x-listed": "1",
        "x-also": "2",
        "keep-alive": "timeout=5",
        "proxy-connection": "keep-alive",
        "proxy-authorization": "Basic x",
        te: "trailers",
        trailer: "x-t",
        "transfer-encoding": "chunked",
        upgrade: "websocket",
        expect: "100-continue",
        authorization: "Bearer sk_1",
        "x-api-key": "passes",
        accept: "application/json",
      },
      ctx,
    );
    expect(Object.keys(out).sort()).toEqual([
      "accept",
      "x-api-key",
      "x-forwarded-for",
      "x-forwarded-host",
      "x-forwarded-proto",
      "x-sluice-key",
      "x-sluice-tenant",
    ]);
  });

  it("sets X-Forwarded-* and X-Sluice-*: X-Forwarded-For is the client alone, a direct client's X-Forwarded-* are dropped, client-sent X-Sluice-* replaced", () => {
    const out = upstreamRequestHeaders(
      {
        host: "gw.example:8443",
        "x-forwarded-for": "203.0.113.1, 203.0.113.2",
        "x-forwarded-proto": "http",
        "x-forwarded-host": "evil.example",
        "x-sluice-tenant": "evil",
        "x-sluice-peer-auth": "s",
      },
      ctx,
    );
    expect(out).toEqual({
      "x-forwarded-for": "192.0.2.1",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "gw.example:8443",
      "x-sluice-tenant": "TTTTTTTT",
      "x-sluice-key": "KKKKKKKK",
    });
  });

  it("through a trusted proxy: its first X-Forwarded-Proto (http/https only) and -Host pass on, X-Forwarded-For is still the client alone", () => {
    const viaProxy = { ...ctx, proto: "http", viaTrustedProxy: true };
    const out = upstreamRequestHeaders(
      {
        host: "10.0.0.2:3000",
        "x-forwarded-for": "198.51.100.9, 192.0.2.1",
        "x-forwarded-proto": "HTTPS, http",
        "x-forwarded-host": "api.example.com, 10.0.0.2",
      },
      viaProxy,
    );
    expect(out).toMatchObject({
      "x-forwarded-for": "192.0.2.1",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "api.example.com",
    });
    const odd = upstreamRequestHeaders({ host: "gw.example", "x-forwarded-proto": "gopher" }, viaProxy);
    expect(odd).toMatchObject({ "x-forwarded-proto": "http", "x-forwarded-host": "gw.example" });
  });

  it("keeps end-to-end headers as they came, repeated ones too", () => {
    const out = upstreamRequestHeaders(
      {
        "x-api-key": "sk_1",
        authorization: "Basic dTpw",
        cookie: "a=1; b=2",
        "x-multi": ["1", "2"] as unknown as string,
      },
      ctx,
    );
    expect(out.authorization).toBe("Basic dTpw");
    expect(out["x-api-key"]).toBeUndefined();
    expect(out.cookie).toBe("a=1; b=2");
    expect(out["x-multi"]).toEqual(["1", "2"]);
  });
});

describe("clientResponseHeaders", () => {
  it("passes the upstream's headers but hop-by-hop ones, and sets the rate-limit headers over any of the same name", () => {
    const out = clientResponseHeaders(
      {
        "content-type": "text/plain",
        "set-cookie": ["a=1", "b=2"],
        connection: "close, X-Hop",
        "x-hop": "1",
        "transfer-encoding": "chunked",
        "keep-alive": "timeout=5",
        "X-RateLimit-Remaining": "0",
        "content-length": "12",
      },
      { "X-RateLimit-Remaining": "41", RateLimit: '"per-key";r=41;t=9' },
    );
    expect(out).toEqual({
      "content-type": "text/plain",
      "set-cookie": ["a=1", "b=2"],
      "content-length": "12",
      "x-ratelimit-remaining": "41",
      ratelimit: '"per-key";r=41;t=9',
    });
  });
});

describe("upstreamRequestHeaders on a tenant's host (admission names the consumed credential)", () => {
  it("passes a JWT caller's Authorization unchanged, with no X-Sluice-Key, and drops a client-sent one", () => {
    const out = upstreamRequestHeaders(
      { host: "api.example.com", authorization: "Bearer eyJhbGciOiJFUzI1NiJ9.e30.sig", "x-sluice-key": "forged" },
      { ...ctx, keyId: "", credential: null },
    );
    expect(out.authorization).toBe("Bearer eyJhbGciOiJFUzI1NiJ9.e30.sig");
    expect(out["x-sluice-key"]).toBeUndefined();
  });

  it("removes the x-api-key a key caller used and passes its Bearer JWT on", () => {
    const out = upstreamRequestHeaders(
      { host: "api.example.com", authorization: "Bearer eyJ.e30.sig", "x-api-key": "sluice_k" },
      { ...ctx, credential: "x-api-key" },
    );
    expect(out.authorization).toBe("Bearer eyJ.e30.sig");
    expect(out["x-api-key"]).toBeUndefined();
    expect(out["x-sluice-key"]).toBe("KKKKKKKK");
  });
});
