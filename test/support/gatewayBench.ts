/**
 * The bench the gateway's integration tests share (lib/dataplane/gateway/forward*.int.test.ts):
 * real upstream servers on the loopback (test/support/testUpstream.ts) behind a bare Node server
 * that forwards every request the way the data plane does once a request is admitted (no Redis or
 * Postgres needed), and a raw HTTP client. `gatewayBench()`, called at the top of a test file,
 * closes every server the file starts after each test, and the gateway's agent after the file.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach } from "vitest";
import { closeGatewayAgent } from "@/lib/dataplane/gateway/gatewayAgent";
import { forwardToUpstream } from "@/lib/dataplane/gateway/forwardToUpstream";
import type { UpstreamTarget } from "@/lib/policy/upstreams/upstreamSchema";
import { startTestUpstream, type TestUpstream, type UpstreamHandler } from "./testUpstream";

export const RATE_LIMIT = {
  "ratelimit-policy": '"per-key";q=100;w=60',
  ratelimit: '"per-key";r=99;t=60',
  "x-ratelimit-remaining": "99",
};
export const TENANT = "TenantAA";
export const KEY = "KeyAAAAA";

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function gatewayBench() {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  afterAll(() => closeGatewayAgent());

  /**
   * A front server forwarding everything under /api/v1 to `url` (or to an upstream given whole,
   * e.g. with its signing secret); `onStatus` is told each status sent.
   */
  async function front(
    url: string | Omit<UpstreamTarget, "timeoutMs">,
    timeoutMs = 5_000,
    onStatus?: (status: number) => void,
  ): Promise<number> {
    const server = http.createServer((req, res) => {
      void forwardToUpstream({
        req,
        res,
        upstream: typeof url === "string" ? { url, timeoutMs } : { ...url, timeoutMs },
        path: req.url!.slice("/api/v1".length),
        clientIp: "198.51.100.7",
        viaTrustedProxy: false,
        tenantId: TENANT,
        keyId: KEY,
        rateLimitHeaders: RATE_LIMIT,
        ...(onStatus ? { onStatus } : {}),
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    return (server.address() as AddressInfo).port;
  }

  async function upstream(handler?: UpstreamHandler): Promise<TestUpstream> {
    const u = await startTestUpstream(handler);
    open.push(u);
    return u;
  }

  return { front, upstream };
}

/** One request with exactly these headers (fetch would refuse Connection, TE, Upgrade ...). */
export function send(
  port: number,
  init: {
    method?: string;
    path: string;
    headers?: http.OutgoingHttpHeaders;
    body?: Buffer | string;
    agent?: http.Agent;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: init.method ?? "GET",
        path: init.path,
        headers: init.headers,
        agent: init.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

export const json = (a: Answer) => JSON.parse(a.body.toString("utf8"));
