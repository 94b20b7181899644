/**
 * forwardToUpstream against real upstream servers on the loopback (test/support/testUpstream.ts),
 * behind a bare Node server that forwards every request the way the data plane does once a request
 * is admitted (no Redis or Postgres needed). Checks what reaches the upstream and what comes back:
 * method, path, query, body and headers; bodies streamed both ways; 504, 502 and a failure
 * mid-body; a client going away; connections reused. Closes every server it starts.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { freePort } from "@/test/support/freePort";
import { waitUntil } from "@/test/support/sluiceEnv";
import { startTestUpstream, type TestUpstream, type UpstreamHandler } from "@/test/support/testUpstream";
import { metrics } from "../../monitoring/prometheus/metrics";
import { closeGatewayAgent, forwardToUpstream } from "./forwardToUpstream";

const RATE_LIMIT = { "ratelimit-policy": '"per-key";q=100;w=60', ratelimit: '"per-key";r=99;t=60', "x-ratelimit-remaining": "99" };
const TENANT = "TenantAA";
const KEY = "KeyAAAAA";
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  while (open.length) await open.pop()!.close();
});
afterAll(() => closeGatewayAgent());

/** A front server forwarding everything under /api/v1 to `url`; `onStatus` is told each status sent. */
async function front(url: string, timeoutMs = 5_000, onStatus?: (status: number) => void): Promise<number> {
  const server = http.createServer((req, res) => {
    void forwardToUpstream({ req, res, upstream: { url, timeoutMs }, path: req.url!.slice("/api/v1".length), clientIp: "198.51.100.7", tenantId: TENANT, keyId: KEY, rateLimitHeaders: RATE_LIMIT, ...(onStatus ? { onStatus } : {}) });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({ close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) });
  return (server.address() as AddressInfo).port;
}

async function upstream(handler?: UpstreamHandler): Promise<TestUpstream> {
  const u = await startTestUpstream(handler);
  open.push(u);
  return u;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these headers (fetch would refuse Connection, TE, Upgrade ...). */
function send(port: number, init: { method?: string; path: string; headers?: http.OutgoingHttpHeaders; body?: Buffer | string; agent?: http.Agent }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: init.method ?? "GET", path: init.path, headers: init.headers, agent: init.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

const json = (a: Answer) => JSON.parse(a.body.toString("utf8"));

describe("what passes to the upstream and back", () => {
  it("method, path (after /api/v1, under the upstream's own path) and query as sent; status, headers and body as answered, plus the rate-limit headers", async () => {
    let body = "";
    const up = await upstream((req, res) => {
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        res.writeHead(201, [["content-type", "application/vnd.orders+json"], ["set-cookie", "a=1"], ["set-cookie", "b=2"], ["x-upstream", "yes"], ["x-ratelimit-remaining", "0"]].flat());
        res.end('{"created":42}');
      });
    });
    const port = await front(`${up.url}/base`);
    const res = await send(port, { method: "PATCH", path: "/api/v1/orders/42?x=1&y=%20z", headers: { "content-type": "application/json", authorization: "Bearer sk_secret" }, body: '{"qty":3}' });
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
    expect([res.status, res.headers["content-type"], res.headers["retry-after"], res.body.toString()]).toEqual([503, "text/plain", "30", "back at 2"]);
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
    for (const name of ["authorization", "x-hop-listed", "keep-alive", "te", "proxy-authorization", "x-sluice-peer-auth"]) expect(h[name], name).toBeUndefined();
    expect(h["x-api-key"]).toBe("the-upstreams-own-key");
    expect(h["x-end-to-end"]).toBe("kept");
    expect(h.cookie).toBe("c=1");
    expect(h["x-forwarded-for"]).toBe("203.0.113.9, 198.51.100.7");
    expect(h["x-forwarded-proto"]).toBe("http");
    expect(h["x-forwarded-host"]).toBe("api.example.test");
    expect(h["x-sluice-tenant"]).toBe(TENANT);
    expect(h["x-sluice-key"]).toBe(KEY);
    expect(h.host).toBe(`127.0.0.1:${up.port}`);
  });

  it("headers: a key sent as x-api-key is dropped and the upstream's own Authorization passes", async () => {
    const up = await upstream();
    await send(await front(up.url), { path: "/api/v1/h", headers: { "x-api-key": "sk_live_secret", authorization: "Basic dXNlcjpwdw==" } });
    expect(up.seen[0]!.headers["x-api-key"]).toBeUndefined();
    expect(up.seen[0]!.headers.authorization).toBe("Basic dXNlcjpwdw==");
  });

  it("the upstream's hop-by-hop response headers are not passed back", async () => {
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, { connection: "x-secret-hop", "x-secret-hop": "1", "keep-alive": "timeout=5", "proxy-authenticate": "Basic", "x-kept": "1" });
      res.end("ok");
    });
    const res = await send(await front(up.url), { path: "/api/v1/h" });
    expect(res.headers["x-secret-hop"]).toBeUndefined();
    expect(res.headers["proxy-authenticate"]).toBeUndefined();
    expect(res.headers["keep-alive"]).toBeUndefined();
    expect(res.headers["x-kept"]).toBe("1");
  });
});

describe("streaming both ways", () => {
  it("a 48 MiB upload in 64 KiB chunks reaches the upstream while still being sent, and its echo streams back whole", async () => {
    const CHUNK = 64 * 1024;
    const CHUNKS = 768;
    let received = 0;
    const up = await upstream((req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      req.on("data", (c: Buffer) => (received += c.length));
      req.pipe(res);
    });
    const port = await front(up.url);
    const sentHash = createHash("sha256");
    const gotHash = createHash("sha256");
    let got = 0;
    let receivedWhenHalfSent = -1;
    let gotWhenHalfSent = -1;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/v1/upload", agent: false, headers: { "content-type": "application/octet-stream" } }, (res) => {
        res.on("data", (c: Buffer) => {
          got += c.length;
          gotHash.update(c);
        });
        res.on("end", () => resolve(res.statusCode!));
        res.on("error", reject);
      });
      req.on("error", reject);
      let i = 0;
      const writeMore = () => {
        while (i < CHUNKS) {
          if (i === CHUNKS / 2) {
            receivedWhenHalfSent = received;
            gotWhenHalfSent = got;
          }
          const chunk = randomBytes(CHUNK);
          sentHash.update(chunk);
          i++;
          if (!req.write(chunk)) return void req.once("drain", writeMore);
        }
        req.end();
      };
      writeMore();
    });
    expect(status).toBe(200);
    expect(got).toBe(CHUNK * CHUNKS);
    expect(gotHash.digest("hex")).toBe(sentHash.digest("hex"));
    // Not buffered: halfway through the upload the upstream had data and its echo was coming back.
    expect(receivedWhenHalfSent).toBeGreaterThan(0);
    expect(gotWhenHalfSent).toBeGreaterThan(0);
  });

  it("the answer is passed on chunk by chunk: the client reads the first part before the upstream sends the rest", async () => {
    let release!: () => void;
    const rest = new Promise<void>((resolve) => (release = resolve));
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first;");
      void rest.then(() => res.end("rest"));
    });
    const port = await front(up.url);
    const text = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/api/v1/stream", agent: false }, (res) => {
          let all = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => {
            all += c;
            if (all === "first;") release();
          });
          res.on("end", () => resolve(all));
        })
        .on("error", reject);
    });
    expect(text).toBe("first;rest");
  });
});

describe("failures", () => {
  const outcomes = async (outcome: string) => {
    const metric = await metrics().gatewayResponses.get();
    return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };

  it("no answer within timeoutMs: 504 problem+json with the rate-limit headers, naming no host", async () => {
    const up = await upstream((req) => req.resume()); // never answers
    const port = await front(up.url, 300);
    const before = await outcomes("timeout");
    const started = performance.now();
    const res = await send(port, { path: "/api/v1/slow" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(res.status).toBe(504);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers["x-ratelimit-remaining"]).toBe("99");
    expect(json(res)).toMatchObject({ status: 504, title: "Gateway Timeout", detail: "The upstream did not answer within 300 ms." });
    expect(res.body.toString()).not.toContain(String(up.port));
    expect(await outcomes("timeout")).toBe(before + 1);
  });

  it("upstream down: 502 problem+json naming no host, port or error", async () => {
    const port = await front(`http://127.0.0.1:${await freePort()}`);
    const before = await outcomes("unreachable");
    const res = await send(port, { method: "POST", path: "/api/v1/down", body: "payload" });
    expect(res.status).toBe(502);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(json(res)).toEqual({ type: "about:blank", title: "Bad Gateway", status: 502, detail: "The upstream could not be reached." });
    expect(await outcomes("unreachable")).toBe(before + 1);
  });

  it("an upstream URL that does not parse (never stored: the schema refuses it) is a 502 too, not a crash", async () => {
    const res = await send(await front("no scheme"), { path: "/api/v1/x" });
    expect(res.status).toBe(502);
  });

  it("an upstream that fails mid-body ends the client's connection (no problem after the headers, no silent truncation)", async () => {
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, { "content-length": "1000000" });
      res.write(Buffer.alloc(10_000));
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const port = await front(up.url);
    const failure = await new Promise<string>((resolve) => {
      http
        .get({ host: "127.0.0.1", port, path: "/api/v1/broken", agent: false }, (res) => {
          expect(res.statusCode).toBe(200);
          res.resume();
          res.on("end", () => resolve("ended normally"));
          res.on("error", (e) => resolve(`error: ${e.message}`));
          res.on("aborted", () => resolve("aborted"));
        })
        .on("error", (e) => resolve(`error: ${e.message}`));
    });
    expect(failure).not.toBe("ended normally");
  });

  it("a client that goes away aborts the upstream request", async () => {
    let upstreamClosed = false;
    const up = await upstream((req, res) => {
      req.resume();
      res.on("close", () => (upstreamClosed = true)); // never answered: closed only by the gateway
    });
    const port = await front(up.url);
    const before = await outcomes("aborted");
    const req = http.request({ host: "127.0.0.1", port, path: "/api/v1/hang", agent: false });
    req.on("error", () => undefined);
    req.end();
    await waitUntil(async () => up.seen.length === 1, 5_000, "the request reached the upstream");
    req.destroy();
    await waitUntil(async () => upstreamClosed, 5_000, "the upstream request was aborted");
    await waitUntil(async () => (await outcomes("aborted")) === before + 1, 5_000, "counted as aborted");
  });
});

describe("connections", () => {
  it("are kept alive and reused: 20 requests in a row use one connection to the upstream", async () => {
    const up = await upstream();
    const port = await front(up.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 20; i++) expect((await send(port, { method: i % 2 ? "POST" : "GET", path: `/api/v1/n/${i}`, body: i % 2 ? "x" : undefined, agent })).status).toBe(200);
    } finally {
      agent.destroy();
    }
    expect(up.seen).toHaveLength(20);
    expect(up.connections()).toBe(1);
  });
});

describe("the status sent, for count by response (onStatus)", () => {
  it("is the upstream's status, or Sluice's own 502, told once per exchange", async () => {
    const up = await upstream((req, res) => {
      req.resume();
      res.writeHead(req.url === "/bad" ? 401 : 200);
      res.end();
    });
    const told: number[] = [];
    const port = await front(up.url, 5_000, (status) => told.push(status));
    expect((await send(port, { path: "/api/v1/bad" })).status).toBe(401);
    expect((await send(port, { path: "/api/v1/ok" })).status).toBe(200);
    const unreachable = await front(`http://127.0.0.1:${await freePort()}`, 5_000, (status) => told.push(status));
    expect((await send(unreachable, { path: "/api/v1/x" })).status).toBe(502);
    expect(told).toEqual([401, 200, 502]);
  });

  it("is not told when the client goes away before any status", async () => {
    const up = await upstream((req) => req.resume()); // never answers
    const told: number[] = [];
    const port = await front(up.url, 5_000, (status) => told.push(status));
    const req = http.request({ host: "127.0.0.1", port, path: "/api/v1/slow", agent: false });
    req.on("error", () => undefined);
    req.end();
    const aborted = async () => (await metrics().gatewayResponses.get()).values.find((v) => v.labels.outcome === "aborted")?.value ?? 0;
    const before = await aborted();
    await waitUntil(async () => up.seen.length === 1, 5_000, "the request reaches the upstream");
    req.destroy();
    // Counted as aborted: the exchange is over, and no status was sent, so none is told.
    await waitUntil(async () => (await aborted()) === before + 1, 5_000, "counted as aborted");
    expect(told).toEqual([]);
  });
});
