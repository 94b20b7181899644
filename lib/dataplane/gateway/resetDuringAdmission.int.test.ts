/**
 * A client that resets its connection while its admission is pending (a held decision: a slow
 * Redis) must leave nothing behind (issue 28 point 14): before, the exchange was started on a
 * response already destroyed, whose `close` had fired, so it never settled; the upstream request
 * stayed open (forever for a stream such as SSE) and so did the request's concurrency lease.
 * The data plane (lib/dataplane/dataPlane.ts) with its real admission and gateway, a limiter on the
 * shared Redis under this test's prefix, and a test upstream that streams and never ends.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { startTestUpstream } from "@/test/support/testUpstream";
import { waitUntil } from "@/test/support/sluiceEnv";
import { createLimiter, type Limiter } from "../../limiter/decide";
import { compileRule } from "../../policy/compiled/effectiveRules";
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { KeyAccess } from "../../policy/compiled/accessLoader";
import { mintKey } from "../../policy/keys/apiKeySecret";
import { ruleSchema } from "../../policy/rules/ruleSchema";
import { createDataPlane } from "../dataPlane";
import { closeGatewayAgent, forwardToUpstream } from "./forwardToUpstream";

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
    const minted = mintKey("ResetKy1");
    const inFlight = ruleSchema.parse({ name: "in-flight", algorithm: "concurrency", limit: 1, windowMs: 600_000 });
    const key: KeyAccess = {
      id: "ResetKy1",
      tenantId: "ResetTenant1",
      name: "reset",
      secretHash: minted.secretHash,
      expiresAtMs: null,
      overrides: [],
      rules: [compileRule(inFlight, "in-flight", false)],
    };
    const access = {
      isReady: () => true,
      ready: async () => {},
      liveKey: (id: string) => (id === key.id ? key : undefined),
      tenant: () => undefined,
    } as unknown as AccessCache;
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
    const server = http.createServer(
      createDataPlane({
        admit: { access, limiter: held, anonLimitPerMinute: 30, enforce: true },
        check: { access, limiter: held },
        trustProxyHops: 0,
        gateway: {
          upstreamFor: () => ({ url: upstream.url, timeoutMs: 600_000 }),
          forward: forwardToUpstream,
        },
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", () => undefined);
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`GET /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${minted.key}\r\n\r\n`);
      await waitUntil(async () => decisions === 1, 5_000, "the admission is pending");
      socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 100)); // the server sees the reset
      letGo();
      // Before, the exchange never ended, and the lease was never given back.
      await waitUntil(async () => released === 1, 5_000, "the reset request's lease is given back");

      // The in-flight limit (1) admits the next request.
      const next = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http
          .get(
            `http://127.0.0.1:${port}/api/v1/events`,
            { headers: { authorization: `Bearer ${minted.key}` } },
            resolve,
          )
          .on("error", reject),
      );
      expect(next.statusCode).toBe(200);
      next.destroy();
      // And no exchange of the reset client stays open at the upstream.
      await waitUntil(async () => open === 0, 5_000, "no upstream exchange left open");
      expect(upstream.seen).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      server.close();
      await upstream.close();
    }
  });
});
