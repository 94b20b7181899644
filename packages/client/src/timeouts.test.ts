/**
 * A Sluice that accepts connections and never answers (a hung instance, a black-holed load
 * balancer) against the client and its middlewares: every decision gives up after the client's
 * `timeoutMs` with SluiceTimeoutError, and the middleware's failMode decides the request's fate.
 * The server is a loopback node:http server that reads requests and never writes; it is closed
 * with its connections at the end.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withSluice } from "./middleware/next";
import { SluiceTimeoutError, withRetry } from "./retry";
import { createSluiceClient } from "./sluiceClient";

let silent: http.Server;
let baseUrl: string;
let received = 0;

beforeAll(async () => {
  silent = http.createServer(() => {
    received++; // never answered
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

describe("a Sluice that never answers", () => {
  it("check() rejects with SluiceTimeoutError after timeoutMs instead of waiting forever", async () => {
    const client = createSluiceClient({ baseUrl, apiKey: "sluice_test", timeoutMs: 200 });
    const error = await client.check({ identifier: "u", rule: "per-user" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SluiceTimeoutError);
    expect((error as SluiceTimeoutError).timeoutMs).toBe(200);
  });

  it("authorize() rejects with SluiceTimeoutError too (per-call timeoutMs)", async () => {
    const client = createSluiceClient({ baseUrl, apiKey: "sluice_test" });
    const error = await client
      .authorize({ method: "GET", uri: "/orders/1" }, { timeoutMs: 150 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SluiceTimeoutError);
  });

  it("the Next.js middleware with failMode open lets the request through with the default timeout", async () => {
    const client = createSluiceClient({ baseUrl, apiKey: "sluice_test" });
    const errors: unknown[] = [];
    const handler = withSluice(async () => new Response("handled"), {
      client,
      rule: "per-user",
      identifier: () => "u",
      onError: (e) => errors.push(e),
    });
    const response = await handler(new Request("http://app.test/x"), undefined);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("handled");
    expect(errors[0]).toBeInstanceOf(SluiceTimeoutError);
  });

  it("the middleware with failMode closed answers 503", async () => {
    const client = createSluiceClient({ baseUrl, apiKey: "sluice_test", timeoutMs: 100 });
    const handler = withSluice(async () => new Response("handled"), {
      client,
      rule: "per-user",
      identifier: () => "u",
      failMode: "closed",
    });
    const response = await handler(new Request("http://app.test/x"), undefined);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(received).toBeGreaterThan(0);
  });
});

describe("withRetry's timeoutMs", () => {
  it("does not make a wait that would end after the deadline: the last answer is returned", async () => {
    const waited: number[] = [];
    let calls = 0;
    const response = await withRetry(
      async () => {
        calls++;
        return new Response("{}", { status: 429, headers: { "retry-after": "5" } });
      },
      { timeoutMs: 1_000, sleep: async (ms) => void waited.push(ms) },
    );
    expect(response.status).toBe(429);
    expect(calls).toBe(1);
    expect(waited).toEqual([]);
  });

  it("the caller's own abort is its reason, not a timeout", async () => {
    const stop = new Error("stop");
    const error = await withRetry(
      (signal) => new Promise<Response>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
      { timeoutMs: 60_000, signal: AbortSignal.abort(stop) },
    ).catch((e: unknown) => e);
    expect(error).toBe(stop);
  });
});
