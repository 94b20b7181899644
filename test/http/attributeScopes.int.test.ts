/**
 * Rules keyed by a request attribute (scope `header` / `query`, README "Keys, rules and
 * enforcement") on two built servers on one Redis and one Postgres: each value of the header has
 * its own counter, shared by both instances; a request without the attribute skips the rule or is
 * refused with 400 naming it (charging nothing); the same through the gateway (the upstream never
 * sees a refused request) and forward auth (header from the proxied request, query from its URI).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall, type ApiAnswer, type CreatedKey } from "@/test/support/adminClient";
import { rawRequest } from "@/test/support/rawHttp";
import { waitUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { twoServersForSuite } from "@/test/support/twoServers";
import { startTestUpstream, type TestUpstream } from "@/test/support/testUpstream";

const HOUR_MS = 3_600_000;

const servers = twoServersForSuite("http-attrs", { SLUICE_REDIS_TIMEOUT_MS: "2000", SLUICE_TRUST_PROXY: "1" });
let upstream: TestUpstream;

beforeAll(async () => {
  upstream = await startTestUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

/** A tenant with `rules` and one key, once B serves it (the probe sends the header a header rule may need). */
const fixture = (rules: RuleInput[]) => servers.tenantWithKey(rules, { probeHeaders: { "x-user-id": "probe" } });

const echo = (
  server: SluiceServer,
  key: CreatedKey,
  headers: Record<string, string> = {},
  path = "/api/v1/echo",
): Promise<ApiAnswer> => apiCall(server.url, path, { key: key.key, headers });

describe("scope header", () => {
  it("charges per value of the header, shared by both instances", async () => {
    const { key } = await fixture([
      {
        name: "per-user",
        scope: "header",
        scopeKey: "X-User-Id",
        algorithm: "fixed_window",
        limit: 2,
        windowMs: HOUR_MS,
      },
    ]);
    expect((await echo(servers.a, key, { "x-user-id": "alice" })).status).toBe(200);
    expect((await echo(servers.b, key, { "X-User-Id": "alice" })).status).toBe(200);
    const refused = await echo(servers.a, key, { "x-user-id": "alice" });
    expect(refused.status).toBe(429);
    expect((refused.body as { "violated-policies": string[] })["violated-policies"]).toEqual(["per-user"]);
    // The refusal is cached per value: another value of the same key still has its whole quota.
    const bob = await echo(servers.b, key, { "x-user-id": "bob" });
    expect(bob.status).toBe(200);
    expect(bob.headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await echo(servers.b, key, { "x-user-id": "alice" })).status).toBe(429);
  });

  it("onMissing skip: a request without the header is not counted by the rule", async () => {
    const { key } = await fixture([
      { name: "per-user", scope: "header", scopeKey: "x-user-id", limit: 1, windowMs: HOUR_MS },
    ]);
    for (let i = 0; i < 3; i++) {
      const answer = await echo(servers.a, key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit-policy")).toBeNull();
    }
  });

  it("onMissing refuse: 400 problem+json naming the header, nothing charged", async () => {
    const { key } = await fixture([
      { name: "per-user", scope: "header", scopeKey: "x-user-id", onMissing: "refuse", limit: 5, windowMs: HOUR_MS },
      { name: "per-key", algorithm: "fixed_window", limit: 100, windowMs: HOUR_MS },
    ]);
    const before = await echo(servers.a, key, { "x-user-id": "u" });
    expect(before.headers.get("ratelimit")).toContain('"per-key";r=');
    const remaining = Number(/"per-key";r=(\d+)/.exec(before.headers.get("ratelimit")!)![1]);
    const refused = await echo(servers.b, key);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body).toMatchObject({
      status: 400,
      attribute: { in: "header", name: "x-user-id" },
      rule: "per-user",
    });
    expect((refused.body as { detail: string }).detail).toContain("header x-user-id");
    const after = await echo(servers.a, key, { "x-user-id": "u" });
    expect(after.status).toBe(200);
    // One unit for this call: the 400 charged nothing.
    expect(after.headers.get("ratelimit")).toContain(`"per-key";r=${remaining - 1}`);
  });
});

describe("scope query", () => {
  it("charges per value of the query parameter; values are decoded once", async () => {
    const { key } = await fixture([
      { name: "per-user", scope: "header", scopeKey: "x-unused", limit: 1, windowMs: HOUR_MS },
      {
        name: "per-q",
        scope: "query",
        scopeKey: "user",
        onMissing: "refuse",
        algorithm: "fixed_window",
        limit: 1,
        windowMs: HOUR_MS,
        match: { path: "/api/v1/echo/q" },
      },
    ]);
    expect((await echo(servers.a, key, {}, "/api/v1/echo/q?user=ann%20x")).status).toBe(200);
    expect((await echo(servers.b, key, {}, "/api/v1/echo/q?user=ann+x")).status).toBe(429);
    expect((await echo(servers.b, key, {}, "/api/v1/echo/q?user=ben")).status).toBe(200);
    expect((await echo(servers.a, key, {}, "/api/v1/echo/q?other=1")).body).toMatchObject({
      status: 400,
      attribute: { in: "query", name: "user" },
    });
  });
});

describe("through the gateway and forward auth", () => {
  it("the gateway charges per header value and never forwards a refused request", async () => {
    const { tenantId, key } = await fixture([
      {
        name: "per-user",
        scope: "header",
        scopeKey: "x-user-id",
        onMissing: "refuse",
        algorithm: "fixed_window",
        limit: 1,
        windowMs: HOUR_MS,
        match: { path: "/orders/**" },
      },
    ]);
    expect(
      (await servers.adminA.request("PUT", `/api/admin/tenants/${tenantId}/upstream`, { url: upstream.url })).status,
    ).toBe(200);
    await waitUntil(
      async () => (await echo(servers.b, key, { "x-user-id": "w" }, "/api/v1/orders/1")).status !== 404,
      10_000,
      "B knows the upstream",
    );
    const before = upstream.seen.length;
    expect((await echo(servers.a, key, { "x-user-id": "carol" }, "/api/v1/orders/1?x=1")).status).toBe(200);
    expect((await echo(servers.b, key, { "x-user-id": "carol" }, "/api/v1/orders/2")).status).toBe(429);
    expect((await echo(servers.b, key, {}, "/api/v1/orders/3")).status).toBe(400);
    expect((await echo(servers.b, key, { "x-user-id": "dave" }, "/api/v1/orders/4")).status).toBe(200);
    expect(upstream.seen.slice(before).map((s) => s.url)).toEqual(["/orders/1?x=1", "/orders/4"]);
  });

  it("forward auth reads the header the proxy passes on and the query of the forwarded URI", async () => {
    const { key } = await fixture([
      {
        name: "per-user",
        scope: "header",
        scopeKey: "x-user-id",
        algorithm: "fixed_window",
        limit: 1,
        windowMs: HOUR_MS,
        match: { path: "/app/**" },
      },
      {
        name: "per-tenantq",
        scope: "query",
        scopeKey: "t",
        onMissing: "refuse",
        algorithm: "fixed_window",
        limit: 1,
        windowMs: HOUR_MS,
        match: { path: "/report" },
      },
    ]);
    const authorize = (server: SluiceServer, uri: string, headers: Record<string, string> = {}) =>
      rawRequest(server.url, {
        method: "GET",
        target: "/api/v1/authorize",
        headers: {
          "x-forwarded-method": "GET",
          "x-forwarded-uri": uri,
          "x-forwarded-for": "192.0.2.9",
          authorization: `Bearer ${key.key}`,
          ...headers,
        },
      });
    expect((await authorize(servers.a, "/app/x", { "x-user-id": "erin" })).status).toBe(200);
    expect((await authorize(servers.b, "/app/y", { "x-user-id": "erin" })).status).toBe(429);
    expect((await authorize(servers.b, "/app/y", { "x-user-id": "frank" })).status).toBe(200);
    expect((await authorize(servers.a, "/report?t=acme")).status).toBe(200);
    expect((await authorize(servers.b, "/report?t=acme")).status).toBe(429);
    expect((await authorize(servers.b, "/report?t=globex")).status).toBe(200);
    expect((await authorize(servers.a, "/report")).status).toBe(400);
  });
});
