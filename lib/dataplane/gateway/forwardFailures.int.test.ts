/**
 * forwardToUpstream when things go wrong (test/support/gatewayBench.ts: real upstreams behind a
 * bare forwarding server): 504, 502 and a failure mid-body, a client going away, and the status
 * told to count by response (onStatus).
 */
import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "@/test/support/freePort";
import { json, send, gatewayBench } from "@/test/support/gatewayBench";
import { waitUntil } from "@/test/support/sluiceEnv";
import { metrics } from "../../monitoring/prometheus/metrics";

const { front, upstream } = gatewayBench();

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
    expect(json(res)).toMatchObject({
      status: 504,
      title: "Gateway Timeout",
      detail: "The upstream did not answer within 300 ms.",
    });
    expect(res.body.toString()).not.toContain(String(up.port));
    expect(await outcomes("timeout")).toBe(before + 1);
  });

  it("upstream down: 502 problem+json naming no host, port or error", async () => {
    const port = await front(`http://127.0.0.1:${await freePort()}`);
    const before = await outcomes("unreachable");
    const res = await send(port, { method: "POST", path: "/api/v1/down", body: "payload" });
    expect(res.status).toBe(502);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(json(res)).toEqual({
      type: "about:blank",
      title: "Bad Gateway",
      status: 502,
      detail: "The upstream could not be reached.",
    });
    expect(await outcomes("unreachable")).toBe(before + 1);
  });

  it("an upstream whose headers are too large or not HTTP: 502 saying it answered what cannot be forwarded", async () => {
    const big = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, { "x-big": "v".repeat(20_000) });
      res.end("ok");
    });
    const garbage = http.createServer().on("connection", (socket) => socket.end("NOT HTTP AT ALL\r\n\r\n"));
    await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
    try {
      for (const url of [big.url, `http://127.0.0.1:${(garbage.address() as { port: number }).port}`]) {
        const res = await send(await front(url), { path: "/api/v1/x" });
        expect(res.status, url).toBe(502);
        expect(json(res)).toMatchObject({
          status: 502,
          detail: "The upstream sent a response that cannot be forwarded.",
        });
      }
    } finally {
      garbage.close();
    }
  });

  it("a 504 sent before the client's body was read closes the connection instead of leaving it hung", async () => {
    const up = await upstream((req) => req.resume()); // reads, never answers
    const port = await front(up.url, 300);
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    const closed = new Promise<string>((resolve) => socket.on("close", () => resolve("closed")));
    socket.write(`POST /api/v1/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3000\r\n\r\n${"a".repeat(1500)}`);
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    await waitUntil(async () => text.includes("\r\n\r\n"), 5_000, "the 504 arrives");
    expect(text).toMatch(/^HTTP\/1\.1 504/);
    expect(text.toLowerCase()).toContain("connection: close");
    // The rest of the body and a next request would never be read: the server closes the
    // connection (before, it stayed open until the keep-alive timeout, the request unanswered).
    if (!socket.destroyed) {
      socket.write("b".repeat(1500));
      socket.write("GET /api/v1/next HTTP/1.1\r\nHost: x\r\n\r\n");
    }
    await expect(Promise.race([closed, new Promise((r) => setTimeout(() => r("hung"), 3_000))])).resolves.toBe(
      "closed",
    );
  });

  it("timeoutMs covers the connect and TLS handshake: an upstream that never completes it is a 504 in time", async () => {
    const silent = net.createServer(() => undefined); // accepts, never answers the ClientHello
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = await front(`https://127.0.0.1:${(silent.address() as { port: number }).port}`, 300);
      const started = performance.now();
      const res = await send(port, { path: "/api/v1/x" });
      expect(res.status).toBe(504);
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      silent.close();
    }
  });

  it("an upload is timed by its silences: a body slower in all than timeoutMs, never silent that long, passes", async () => {
    const up = await upstream((req, res) => {
      let n = 0;
      req.on("data", (c: Buffer) => (n += c.length));
      req.on("end", () => res.end(String(n)));
    });
    const port = await front(up.url, 400);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/v1/slow", agent: false }, (r) => {
        let body = "";
        r.on("data", (c: Buffer) => (body += c.toString()));
        r.on("end", () => resolve({ status: r.statusCode!, body }));
      });
      req.on("error", reject);
      let sent = 0;
      const tick = () => {
        req.write("abcdef");
        if (++sent < 6) setTimeout(tick, 150);
        else req.end();
      };
      tick();
    });
    expect(res).toEqual({ status: 200, body: "36" });
  });

  it("a GET that fails on a connection the upstream closed is sent once more; a POST with a body is not", async () => {
    let connections = 0;
    const up = net.createServer((socket) => {
      const n = ++connections;
      socket.once("data", () => {
        // The first connection closes as the request arrives (a pooled connection closed when reused).
        if (n === 1) socket.destroy();
        else socket.end("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
      });
    });
    await new Promise<void>((resolve) => up.listen(0, "127.0.0.1", resolve));
    try {
      const port = await front(`http://127.0.0.1:${(up.address() as { port: number }).port}`);
      const res = await send(port, { path: "/api/v1/x" });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe("ok");
      expect(connections).toBe(2);
      connections = 0;
      const post = await send(port, { method: "POST", path: "/api/v1/x", body: "payload" });
      expect(post.status).toBe(502);
      expect(connections).toBe(1);
    } finally {
      up.close();
    }
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
    const aborted = async () =>
      (await metrics().gatewayResponses.get()).values.find((v) => v.labels.outcome === "aborted")?.value ?? 0;
    const before = await aborted();
    await waitUntil(async () => up.seen.length === 1, 5_000, "the request reaches the upstream");
    req.destroy();
    // Counted as aborted: the exchange is over, and no status was sent, so none is told.
    await waitUntil(async () => (await aborted()) === before + 1, 5_000, "counted as aborted");
    expect(told).toEqual([]);
  });
});
