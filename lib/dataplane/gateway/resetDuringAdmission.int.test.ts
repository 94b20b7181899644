/**
 * A client that resets its connection while its admission is pending (a held decision: a slow
 * Redis) must leave nothing behind (issue 28 point 14): before, the exchange was started on a
 * response already destroyed, whose `close` had fired, so it never settled; the upstream request
 * stayed open (forever for a stream such as SSE) and so did the request's concurrency lease.
 * The data plane with its real admission and gateway (test/support/oneKeyDataPlane.ts), a limiter
 * on the shared Redis under this test's prefix, and a test upstream that streams and never ends.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { startOneKeyDataPlane } from "@/test/support/oneKeyDataPlane";
import { startTestUpstream } from "@/test/support/testUpstream";
import { waitUntil } from "@/test/support/sluiceEnv";
import { createLimiter, type Limiter } from "../../limiter/decide";
import { closeGatewayAgent } from "./gatewayAgent";

const redis = plainRedis();
const prefix = uniquePrefix("reset-admission");
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });

afterAll(async () => {
  await closeGatewayAgent();
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

describe("a client that resets while its admission is pending", () => {
  it("leaves no concurrency lease and no open upstream exchange", async () => {
    // An SSE stream: headers and one event, then never an end.
    let open = 0;
    const upstream = await startTestUpstream((req, res) => {
      open++;
      res.on("close", () => open--);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: hello\n\n");
    });
    // The first decision is held until the test lets it go (a Redis slower than the client's patience).
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    let decisions = 0;
    let released = 0;
    const held: Limiter = {
      ...limiter,
      decide: async (...args) => {
        if (decisions++ === 0) await gate;
        return limiter.decide(...args);
      },
      release: async (...args) => {
        const slots = await limiter.release(...args);
        released++;
        return slots;
      },
    };
    const plane = await startOneKeyDataPlane({
      rules: [{ name: "in-flight", algorithm: "concurrency", limit: 1, windowMs: 600_000 }],
      limiter: held,
      upstreamUrl: upstream.url,
      keyId: "ResetKy1",
      tenantId: "ResetTenant1",
    });
    try {
      const socket = net.connect(plane.port, "127.0.0.1");
      socket.on("error", () => undefined);
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`GET /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${plane.key}\r\n\r\n`);
      await waitUntil(async () => decisions === 1, 5_000, "the admission is pending");
      socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 100)); // the server sees the reset
      letGo();
      // Before, the exchange never ended, and the lease was never given back.
      await waitUntil(async () => released === 1, 5_000, "the reset request's lease is given back");

      // The in-flight limit (1) admits the next request.
      const next = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http
          .get(`${plane.url}/api/v1/events`, { headers: { authorization: `Bearer ${plane.key}` } }, resolve)
          .on("error", reject),
      );
      expect(next.statusCode).toBe(200);
      next.destroy();
      // And no exchange of the reset client stays open at the upstream.
      await waitUntil(async () => open === 0, 5_000, "no upstream exchange left open");
      expect(upstream.seen).toHaveLength(1);
    } finally {
      await plane.close();
      await upstream.close();
    }
  });
});
