/**
 * Signed requests (docs/gateway.md, "Knowing a request came through Sluice"): with a signing
 * secret, what the gateway forwards carries X-Sluice-Signature, and the Express snippet of
 * docs/gateway.md (run here as written there) admits it, and refuses what did not come signed
 * through Sluice: the same request sent straight to the upstream, with a forged or a replayed
 * header for another target or key, or forwarded for a tenant that does not sign.
 */
import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { generateUpstreamSecret, verifyUpstreamSignature } from "@/lib/policy/upstreams/upstreamSignature";
import { KEY, send, gatewayBench } from "@/test/support/gatewayBench";

const { front } = gatewayBench();

/** The snippet of docs/gateway.md, without its imports, as a function of them returning `app`. */
function documentedApp(secret: string): express.Express {
  const doc = readFileSync(new URL("../../../docs/gateway.md", import.meta.url), "utf8");
  const block = /<!-- upstream-signature-snippet -->\n```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/gateway.md: the upstream-signature snippet is missing");
  const body = block.replace(/^import .*$/gm, "");
  const make = new Function("crypto", "express", "process", `${body}\nreturn app;`) as (
    c: typeof crypto,
    e: typeof express,
    p: { env: Record<string, string> },
  ) => express.Express;
  return make(crypto, express, { env: { SLUICE_UPSTREAM_SECRET: secret } });
}

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** The documented upstream, behind its check: answers 200 and records what passed. */
async function verifyingUpstream(secret: string): Promise<{ url: string; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const app = documentedApp(secret);
  app.use((req, res) => {
    seen.push({ method: req.method, url: req.originalUrl, headers: req.headers });
    res.json({ ok: true });
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen };
}

describe("X-Sluice-Signature", () => {
  it("a signed forward passes the documented check; the header verifies over method, target and key", async () => {
    const secret = generateUpstreamSecret();
    const up = await verifyingUpstream(secret);
    const port = await front({ url: `${up.url}/v2`, signingSecret: secret });
    const get = await send(port, { path: "/api/v1/orders/42?x=1&y=%2F" });
    expect(get.status).toBe(200);
    const post = await send(port, { method: "POST", path: "/api/v1/orders", body: '{"n":1}' });
    expect(post.status).toBe(200);
    expect(up.seen.map((s) => [s.method, s.url])).toEqual([
      ["GET", "/v2/orders/42?x=1&y=%2F"],
      ["POST", "/v2/orders"],
    ]);
    const header = up.seen[0]!.headers["x-sluice-signature"] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const request = { method: "GET", target: "/v2/orders/42?x=1&y=%2F", keyId: KEY };
    expect(verifyUpstreamSignature(secret, header, request, Date.now())).toBe(true);
  });

  it("what did not come signed through Sluice is refused: direct, forged, replayed elsewhere, or unsigned", async () => {
    const secret = generateUpstreamSecret();
    const up = await verifyingUpstream(secret);
    const direct = (path: string, headers: http.OutgoingHttpHeaders = {}) =>
      send(up.port, { path, headers: { "x-sluice-key": KEY, ...headers } });

    expect((await direct("/orders/42")).status).toBe(401);
    const forged = `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`;
    expect((await direct("/orders/42", { "x-sluice-signature": forged })).status).toBe(401);
    expect((await direct("/orders/42", { "x-sluice-signature": secret })).status).toBe(401);

    // One signed request seen (e.g. in a log): worthless for another target, method or key.
    const signed = await front({ url: up.url, signingSecret: secret });
    expect((await send(signed, { path: "/api/v1/orders/42" })).status).toBe(200);
    const seenHeader = up.seen[0]!.headers["x-sluice-signature"] as string;
    expect((await direct("/orders/43", { "x-sluice-signature": seenHeader })).status).toBe(401);
    expect((await direct("/orders/42", { "x-sluice-signature": seenHeader, "x-sluice-key": "KeyBBBBB" })).status).toBe(
      401,
    );
    const del = await send(up.port, {
      method: "DELETE",
      path: "/orders/42",
      headers: { "x-sluice-signature": seenHeader, "x-sluice-key": KEY },
    });
    expect(del.status).toBe(401);
    // A stale one (over 5 minutes) is refused however exact.
    const stale = seenHeader.replace(/^t=(\d+)/, (_m, t: string) => `t=${Number(t) - 301}`);
    expect((await direct("/orders/42", { "x-sluice-signature": stale })).status).toBe(401);

    // A tenant that does not sign: no signature reaches the upstream, a client's own is dropped.
    const unsigned = await front(up.url);
    const res = await send(unsigned, { path: "/api/v1/orders/42", headers: { "x-sluice-signature": seenHeader } });
    expect(res.status).toBe(401);
    expect(up.seen).toHaveLength(1);
  });
});
