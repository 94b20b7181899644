/**
 * The client against a real Sluice server (test/support/sluiceServer.ts; `npm run build` first):
 * the typed API, check() with the RateLimit headers parsed, retries honouring Sluice's own
 * Retry-After, authorize() as a proxy's forward-auth call, and both middlewares (a Next.js route
 * handler, an Express app on a loopback port) admitting and refusing through Sluice's decision API. Cleans up its tenant and Redis prefix.
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, deleteTenants, type CreatedKey } from "@/test/support/adminClient";
import { freePort } from "@/test/support/freePort";
import { awayFromWindowEdge, cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";
import { sluiceExpress } from "./middleware/express";
import { withSluice } from "./middleware/next";
import { createSluiceClient, SluiceError, type SluiceClient } from "./sluiceClient";

// A generous Redis deadline: on a loaded machine the default 100 ms would let rules fail open,
// and this test is about the client, not fail modes.
const env = sluiceEnv("client", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
let server: SluiceServer;
let key: CreatedKey;
let tenantId: string;
let client: SluiceClient;
const MINUTE = 60_000;

beforeAll(async () => {
  server = await startSluice({ env: env.env });
  const admin = adminClient(server.url, env.adminToken);
  tenantId = (await admin.createTenant()).id;
  await admin.putTenantRules(tenantId, [
    // The decision service's rules, one per test so counters never mix.
    { name: "per-user", scope: "identifier", algorithm: "fixed_window", limit: 3, windowMs: MINUTE },
    { name: "next-mw", scope: "identifier", algorithm: "fixed_window", limit: 2, windowMs: MINUTE },
    { name: "express-mw", scope: "identifier", algorithm: "fixed_window", limit: 2, windowMs: MINUTE },
    // The key's own limit on calling Sluice: its headers come back on every call.
    { name: "calls", scope: "key", limit: 10_000, windowMs: MINUTE, match: { path: "/api/v1/check" } },
    // One echo per 3 s window under /api/v1/echo/slow: a second call in the window is refused with
    // Retry-After until the window ends (3 s: room for a loaded machine to make both calls in it).
    {
      name: "slow",
      scope: "key",
      algorithm: "fixed_window",
      limit: 1,
      windowMs: 3_000,
      match: { path: "/api/v1/echo/slow" },
    },
    // One echo a minute under /api/v1/echo/once.
    {
      name: "once",
      scope: "key",
      algorithm: "fixed_window",
      limit: 1,
      windowMs: MINUTE,
      match: { path: "/api/v1/echo/once" },
    },
    // Forward auth: the forwarded GET /orders/... of the protected API, twice a minute.
    {
      name: "orders",
      scope: "key",
      algorithm: "fixed_window",
      limit: 2,
      windowMs: MINUTE,
      match: { methods: ["GET"], path: "/orders/*" },
    },
  ]);
  key = await admin.createKey(tenantId, "client test");
  client = createSluiceClient({ baseUrl: server.url, apiKey: key.key, retry: { maxAttempts: 1 } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await deleteTenants(TEST_DATABASE_URL, tenantId ? [tenantId] : []);
  await cleanupRedis(env.prefix);
});

describe("typed API", () => {
  it("calls /api/v1/echo with the key and gets the typed answer", async () => {
    const { data, response } = await client.api.GET("/api/v1/echo");
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ ok: true, tenantId, keyId: key.id, method: "GET", path: "/api/v1/echo" });
  });

  it("sends a catch-all path of several segments as segments, which Sluice serves (not orders%2F42, a 400)", async () => {
    const { data, response } = await client.api.GET("/api/v1/echo/{rest}", { params: { path: { rest: "orders/42" } } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ path: "/api/v1/echo/orders/42" });
  });
});

describe("check()", () => {
  it("answers decisions as values, with the call's RateLimit headers parsed", async () => {
    await awayFromWindowEdge(MINUTE, 5_000);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await client.check({ identifier: "user-1", rule: "per-user" }));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    expect(answers.map((a) => a.remaining)).toEqual([2, 1, 0, 0]);
    expect(answers[3]!.retryAfterMs).toBeGreaterThan(0);
    expect(answers[3]!.rule).toBe("per-user");
    const headers = answers[0]!.rateLimit;
    expect(headers.policies).toEqual([{ name: "calls", quota: 10_000, windowSeconds: 60 }]);
    expect(headers.remaining[0]).toMatchObject({ name: "calls", remaining: expect.any(Number) });
    expect(headers.limit).toBe(10_000);
  });

  it("throws SluiceError with the problem for a rule that is not an identifier rule (404)", async () => {
    const error = await client.check({ identifier: "user-1", rule: "calls" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SluiceError);
    expect((error as SluiceError).status).toBe(404);
    expect((error as SluiceError).problem?.title).toBe("Not Found");
  });

  it("is abortable", async () => {
    await expect(
      client.check({ identifier: "user-2", rule: "per-user" }, { signal: AbortSignal.abort(new Error("stop")) }),
    ).rejects.toThrow();
  });
});

describe("retries", () => {
  it("wait out Sluice's Retry-After on a 429 and then succeed", async () => {
    const retries: { attempt: number; delayMs: number; reason: string }[] = [];
    const patient = createSluiceClient({
      baseUrl: server.url,
      apiKey: key.key,
      retry: { maxAttempts: 3, onRetry: (r) => retries.push(r) },
    });
    await awayFromWindowEdge(3_000, 2_000);
    const started = Date.now();
    expect((await patient.api.GET("/api/v1/echo/{rest}", { params: { path: { rest: "slow" } } })).response.status).toBe(
      200,
    );
    const second = await patient.api.GET("/api/v1/echo/{rest}", { params: { path: { rest: "slow" } } });
    expect(second.response.status).toBe(200);
    expect(retries.length).toBe(1);
    expect(retries[0]).toEqual({ attempt: 1, delayMs: expect.any(Number), reason: "status 429" });
    // The wait was Sluice's Retry-After (whole seconds), and the retry came after the window's end.
    expect(retries[0]!.delayMs % 1000).toBe(0);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]!.delayMs);
  });

  it("with one attempt, hand back the 429 with its Retry-After", async () => {
    await awayFromWindowEdge(MINUTE, 5_000);
    expect((await client.api.GET("/api/v1/echo/{rest}", { params: { path: { rest: "once" } } })).response.status).toBe(
      200,
    );
    const refused = await client.api.GET("/api/v1/echo/{rest}", { params: { path: { rest: "once" } } });
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.error).toMatchObject({ status: 429, "violated-policies": ["once"] });
  });
});

describe("authorize()", () => {
  it("answers a forwarded request as a value: admitted with tenant, key and headers, then refused with 429", async () => {
    await awayFromWindowEdge(MINUTE, 5_000);
    const call = () => client.authorize({ method: "get", uri: "/orders/7?expand=lines" });
    const [a, b, c] = [await call(), await call(), await call()];
    expect([a.allowed, b.allowed, c.allowed]).toEqual([true, true, false]);
    expect(a).toMatchObject({ status: 200, tenantId, keyId: key.id });
    expect(a.rateLimit.policies).toEqual([{ name: "orders", quota: 2, windowSeconds: 60 }]);
    expect(a.rateLimit.remainingUnits).toBe(1);
    expect(c.status).toBe(429);
    expect(c.rateLimit.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(c.problem).toMatchObject({ status: 429, "violated-policies": ["orders"] });
  });

  it("matches the forwarded method and path: a POST there or another path is admitted without the rule", async () => {
    const post = await client.authorize({ method: "POST", uri: "/orders/7" });
    expect(post).toMatchObject({ allowed: true, status: 200 });
    expect(post.rateLimit.policies).toEqual([]);
  });

  it("refuses an unknown credential with 401 as a value, not an exception", async () => {
    const answer = await client.authorize({ method: "GET", uri: "/orders/7", credential: "sk_not_a_real_key" });
    expect(answer.allowed).toBe(false);
    expect(answer.status).toBe(401);
    expect(answer.tenantId).toBeUndefined();
  });
});

describe("Next.js route handler middleware", () => {
  it("admits up to the rule's limit with the headers, then refuses with 429 without calling the handler", async () => {
    await awayFromWindowEdge(MINUTE, 5_000);
    let handled = 0;
    const GET = withSluice(
      async () => {
        handled++;
        return Response.json({ hello: "world" });
      },
      { client, rule: "next-mw", identifier: (request) => request.headers.get("x-user") ?? "anonymous" },
    );
    const call = () => GET(new Request("http://app.test/api/hello", { headers: { "x-user": "alice" } }), {});
    const [a, b, c] = [await call(), await call(), await call()];
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect(handled).toBe(2);
    expect(await a.json()).toEqual({ hello: "world" });
    expect(a.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(a.headers.get("ratelimit")).toMatch(/^"next-mw";r=1;t=\d+$/);
    expect(a.headers.get("ratelimit-policy")).toBe('"next-mw";q=2;w=60');
    expect(c.headers.get("ratelimit-policy")).toBe('"next-mw";q=2;w=60');
    expect(c.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(c.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await c.json()).toMatchObject({ status: 429, "violated-policies": ["next-mw"] });
    // Another user has their own counter.
    expect((await GET(new Request("http://app.test/api/hello", { headers: { "x-user": "bob" } }), {})).status).toBe(
      200,
    );
  });

  it("fails open by default and closed on request when Sluice is unreachable", async () => {
    const nowhere = createSluiceClient({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      apiKey: key.key,
      retry: { maxAttempts: 1 },
    });
    const handler = async () => new Response("ok");
    const open = withSluice(handler, { client: nowhere, rule: "next-mw", identifier: () => "x" });
    const closed = withSluice(handler, { client: nowhere, rule: "next-mw", identifier: () => "x", failMode: "closed" });
    expect((await open(new Request("http://app.test/"), {})).status).toBe(200);
    const refused = await closed(new Request("http://app.test/"), {});
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
  });
});

describe("Express middleware", () => {
  it("protects an Express route through Sluice: 200, 200, then 429 with Retry-After and a problem body", async () => {
    await awayFromWindowEdge(MINUTE, 5_000);
    let handled = 0;
    const app = express();
    app.use(sluiceExpress({ client, rule: "express-mw", identifier: (req) => req.get("x-user") ?? "anonymous" }));
    app.get("/hello", (_req, res) => {
      handled++;
      res.json({ hello: "express" });
    });
    const listener = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => listener.once("listening", () => resolve()));
    try {
      const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hello`;
      const call = () => fetch(url, { headers: { "x-user": "carol" } });
      const [a, b, c] = [await call(), await call(), await call()];
      expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
      expect(handled).toBe(2);
      expect(await a.json()).toEqual({ hello: "express" });
      expect(b.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(b.headers.get("ratelimit-policy")).toBe('"express-mw";q=2;w=60');
      expect(c.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(c.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await c.json()).toMatchObject({ title: "Too Many Requests", "violated-policies": ["express-mw"] });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
