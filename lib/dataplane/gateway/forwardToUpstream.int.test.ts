/**
 * forwardToUpstream (test/support/gatewayBench.ts: real upstreams behind a bare forwarding server):
 * what reaches the upstream and what comes back (method, path, query, body, headers), and
 * connections reused. Streaming: forwardStreaming.int.test.ts; failures and the status told:
 * forwardFailures.int.test.ts.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { KEY, RATE_LIMIT, send, TENANT, gatewayBench } from "@/test/support/gatewayBench";

const { front, upstream } = gatewayBench();

describe("what passes to the upstream and back", () => {
  it("method, path (after /api/v1, under the upstream's own path) and query as sent; status, headers and body as answered, plus the rate-limit headers", async () => {
    let body = "";
    const up = await upstream((req, res) => {
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        res.writeHead(
          201,
          [
            ["content-type", "application/vnd.orders+json"],
            ["set-cookie", "a=1"],
            ["set-cookie", "b=2"],
            ["x-upstream", "yes"],
            ["x-ratelimit-remaining", "0"],
          ].flat(),
        );
        res.end('{"created":42}');
      });
    });
    const port = await front(`${up.url}/base`);
    const res = await send(port, {
      method: "PATCH",
      path: "/api/v1/orders/42?x=1&y=%20z",
      headers: { "content-type": "application/json", authorization: "Bearer sk_secret" },
      body: '{"qty":3}',
    });
    expect(up.seen.map((s) => [s.method, s.url])).toEqual([["PATCH", "/base/orders/42?x=1&y=%20z"]]);
    expect(body).toBe('{"qty":3}');
    expect(res.status).toBe(201);
    expect(res.body.toString()).toBe('{"created":42}');
    expect(res.headers["content-type"]).toBe("application/vnd.orders+json");
    expect(res.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    expect(res.headers["x-upstream"]).toBe("yes");
    // Ours win over the upstream's own of the same name.
    expect(res.headers["x-ratelimit-remaining"]).toBe("99");
    expect(res.headers["ratelimit-policy"]).toBe(RATE_LIMIT["ratelimit-policy"]);
  });

  it("an upstream 4xx or 5xx comes back as it is (not turned into a problem)", async () => {
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(503, "Down For Lunch", { "content-type": "text/plain", "retry-after": "30" });
      res.end("back at 2");
    });
    const res = await send(await front(up.url), { path: "/api/v1/x" });
    expect([res.status, res.headers["content-type"], res.headers["retry-after"], res.body.toString()]).toEqual([
      503,
      "text/plain",
      "30",
      "back at 2",
    ]);
  });

  it("headers: the consumed Bearer credential, hop-by-hop and X-Sluice-* dropped; X-Forwarded-* and X-Sluice-Tenant/Key added; x-api-key passes", async () => {
    const up = await upstream();
    const port = await front(up.url);
    await send(port, {
      path: "/api/v1/h",
      headers: {
        host: "api.example.test",
        authorization: "Bearer sk_live_secret",
        "x-api-key": "the-upstreams-own-key",
        connection: "keep-alive, x-hop-listed",
        "x-hop-listed": "1",
        "keep-alive": "timeout=5",
        te: "trailers",
        "proxy-authorization": "Basic cHJveHk=",
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-host": "spoofed.example",
        "x-sluice-tenant": "spoofed",
        "x-sluice-peer-auth": "secret",
        "x-end-to-end": "kept",
        cookie: "c=1",
      },
    });
    const h = up.seen[0]!.headers;
    for (const name of [
      "authorization",
      "x-hop-listed",
      "keep-alive",
      "te",
      "proxy-authorization",
      "x-sluice-peer-auth",
    ])
      expect(h[name], name).toBeUndefined();
    expect(h["x-api-key"]).toBe("the-upstreams-own-key");
    expect(h["x-end-to-end"]).toBe("kept");
    expect(h.cookie).toBe("c=1");
    // Only the client Sluice settled on: the entry the client sent itself is not passed on.
    expect(h["x-forwarded-for"]).toBe("198.51.100.7");
    expect(h["x-forwarded-proto"]).toBe("http");
    expect(h["x-forwarded-host"]).toBe("api.example.test");
    expect(h["x-sluice-tenant"]).toBe(TENANT);
    expect(h["x-sluice-key"]).toBe(KEY);
    expect(h.host).toBe(`127.0.0.1:${up.port}`);
  });

  it("headers: a key sent as x-api-key is dropped and the upstream's own Authorization passes", async () => {
    const up = await upstream();
    await send(await front(up.url), {
      path: "/api/v1/h",
      headers: { "x-api-key": "sk_live_secret", authorization: "Basic dXNlcjpwdw==" },
    });
    expect(up.seen[0]!.headers["x-api-key"]).toBeUndefined();
    expect(up.seen[0]!.headers.authorization).toBe("Basic dXNlcjpwdw==");
  });

  it("the upstream's hop-by-hop response headers are not passed back", async () => {
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, {
        connection: "x-secret-hop",
        "x-secret-hop": "1",
        "keep-alive": "timeout=5",
        "proxy-authenticate": "Basic",
        "x-kept": "1",
      });
      res.end("ok");
    });
    const res = await send(await front(up.url), { path: "/api/v1/h" });
    expect(res.headers["x-secret-hop"]).toBeUndefined();
    expect(res.headers["proxy-authenticate"]).toBeUndefined();
    expect(res.headers["keep-alive"]).toBeUndefined();
    expect(res.headers["x-kept"]).toBe("1");
  });
});

describe("connections", () => {
  it("are kept alive and reused: 20 requests in a row use one connection to the upstream", async () => {
    const up = await upstream();
    const port = await front(up.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 20; i++)
        expect(
          (
            await send(port, {
              method: i % 2 ? "POST" : "GET",
              path: `/api/v1/n/${i}`,
              body: i % 2 ? "x" : undefined,
              agent,
            })
          ).status,
        ).toBe(200);
    } finally {
      agent.destroy();
    }
    expect(up.seen).toHaveLength(20);
    expect(up.connections()).toBe(1);
  });
});
