/**
 * HTTP semantics under /api/v1 on a built server (`npm run build` first), as ../shared/CONTRACT.md
 * states them, served by the data plane (lib/dataplane): HEAD is charged as GET, OPTIONS is
 * authenticated and limited, the path is decoded once and an encoded / or \ is a 400, every path
 * under /api answers errors as problem+json, Sluice's API answers carry the security headers, and
 * a client-sent peer header never names the client. Requests go over a plain socket with the
 * target exactly as written (test/support/rawHttp.ts).
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, deleteTenants, type AdminClient, type CreatedKey } from "@/test/support/adminClient";
import { startCountingApi } from "@/test/support/frontProxies";
import { rawRequest, type RawAnswer } from "@/test/support/rawHttp";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const HOUR_MS = 3_600_000;
const PROBLEM_JSON = "application/problem+json";

const env = sluiceEnv("http-semantics", { SLUICE_ANON_LIMIT_PER_MINUTE: "1000" });
let server: SluiceServer;
let admin: AdminClient;
const createdTenants: string[] = [];

beforeAll(async () => {
  server = await startSluice({ env: env.env });
  admin = adminClient(server.url, env.adminToken);
});

afterAll(async () => {
  await server?.stop();
  await deleteTenants(TEST_DATABASE_URL, createdTenants);
  await cleanupRedis(env.prefix);
});

async function keyWith(rules: RuleInput[]): Promise<CreatedKey> {
  const tenant = await admin.createTenant();
  createdTenants.push(tenant.id);
  await admin.putTenantRules(tenant.id, rules);
  return admin.createKey(tenant.id);
}

const call = (method: string, target: string, key?: string, headers: Record<string, string> = {}): Promise<RawAnswer> =>
  rawRequest(server.url, {
    method,
    target,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });

function expectProblem(res: RawAnswer, status: number): Record<string, unknown> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toBe(PROBLEM_JSON);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  return body;
}

describe("HEAD is charged as GET", () => {
  it("a rule listing GET applies to HEAD: same headers, no body, and the 429 when it is used up", async () => {
    const key = await keyWith([
      {
        name: "reads",
        algorithm: "sliding_log",
        limit: 2,
        windowMs: HOUR_MS,
        match: { methods: ["GET"], path: "/api/v1/echo" },
      },
    ]);
    const head = await call("HEAD", "/api/v1/echo", key.key);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(head.headers.get("ratelimit-policy")).toBe('"reads";q=2;w=3600');
    expect((await call("GET", "/api/v1/echo", key.key)).headers.get("x-ratelimit-remaining")).toBe("0");
    const refused = await call("HEAD", "/api/v1/echo", key.key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await call("GET", "/api/v1/echo", key.key)).status).toBe(429);
    // POST is not listed: not charged.
    expect((await call("POST", "/api/v1/echo", key.key)).status).toBe(200);
  });
});

describe("OPTIONS is authenticated and limited", () => {
  it("without a key: 401 problem, never a bare 204", async () => {
    const res = await call("OPTIONS", "/api/v1/echo");
    expectProblem(res, 401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="sluice"');
  });

  it("with a key: 204 with Allow, charged by the rules that apply to it", async () => {
    const key = await keyWith([{ name: "all", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS }]);
    const first = await call("OPTIONS", "/api/v1/echo/a", key.key);
    expect(first.status).toBe(204);
    expect(first.headers.get("allow")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    const check = await call("OPTIONS", "/api/v1/check", key.key);
    expect(check.status).toBe(204);
    expect(check.headers.get("allow")).toBe("POST, OPTIONS");
    expectProblem(await call("OPTIONS", "/api/v1/echo", key.key), 429);
  });
});

describe("the path is decoded once; an encoded / or \\ is a 400", () => {
  it("%2F cannot escape a rule on /api/v1/echo/export/**: 400 before anything is charged", async () => {
    const key = await keyWith([
      {
        name: "exports",
        algorithm: "sliding_log",
        limit: 1,
        windowMs: HOUR_MS,
        match: { path: "/api/v1/echo/export/**" },
      },
    ]);
    for (const target of [
      "/api/v1/echo/export%2Fa",
      "/api/v1/echo/export%2fa",
      "/api/v1/echo/export%5Ca",
      "/api/v1/echo/export/%2e%2e/a",
      "/api/v1/echo//export/a",
      "/api/v1/echo/%ZZ",
    ]) {
      const body = expectProblem(await call("GET", target, key.key), 400);
      expect(body.detail, target).toMatch(/path/);
    }
    // Encoded unreserved or non-ASCII characters are the same path to the rules.
    const first = await call("GET", "/api/v1/echo/%65xport/a", key.key);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(JSON.parse(first.text)).toMatchObject({ path: "/api/v1/echo/%65xport/a" });
    expectProblem(await call("GET", "/api/v1/echo/export/a", key.key), 429);
  });

  it("decodes once, never twice: %2578 is the segment %78, not x", async () => {
    const key = await keyWith([
      { name: "only-x", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS, match: { path: "/api/v1/echo/x" } },
    ]);
    const res = await call("GET", "/api/v1/echo/%2578", key.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBeNull();
  });

  it("a path spelled to reach /api/v1 some other way is still the data plane's", async () => {
    expectProblem(await call("GET", "/api/%761/echo"), 401);
    // Resolving the dot segment would land under /api/v1: refused there (400), never Next's.
    expectProblem(await call("GET", "/api/x/../v1/echo"), 400);
    expectProblem(
      await call("GET", "/api/v1/../admin/tenants", undefined, { authorization: `Bearer ${env.adminToken}` }),
      400,
    );
  });

  it("a target in absolute-form is served as its path (RFC 9112 3.2.2), not redirected", async () => {
    const key = await keyWith([{ name: "per-key", algorithm: "fixed_window", limit: 100, windowMs: HOUR_MS }]);
    const res = await call("GET", "http://api.example/api/v1/echo/a?x=1", key.key);
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ ok: true, path: "/api/v1/echo/a" });
    expect(res.headers.get("ratelimit-policy")).toBe('"per-key";q=100;w=3600');
    expectProblem(await call("GET", "http://api.example/api/v1/echo"), 401);
    expectProblem(await call("GET", "http://api.example/api/v1/echo/export%2Fa", key.key), 400);
    // The control plane too: an admin API error is its problem+json, not a redirect.
    expectProblem(await call("GET", "http://api.example/api/admin/tenants"), 401);
  });
});

describe("every path under /api answers errors as problem+json", () => {
  it.each(["/api/v1", "/api/v1/", "/api/admin/typo", "/api/typo", "/api/admin/tenants/x/typo", "/api"])(
    "%s",
    async (target) => {
      for (const method of ["GET", "POST", "DELETE"]) {
        const res = await call(method, target);
        expect([401, 404], `${method} ${target}: ${res.status}`).toContain(res.status);
        expectProblem(res, res.status);
      }
    },
  );

  it("OPTIONS * (no route at all): a 400 problem, not a text/plain 500", async () => {
    expect(expectProblem(await call("OPTIONS", "*"), 400).detail).toMatch(/must start with \//);
  });

  it("/api/v1 itself with a valid key: 404 problem after admission", async () => {
    const key = await keyWith([]);
    expect(expectProblem(await call("GET", "/api/v1", key.key), 404).detail).toMatch(/no gateway upstream/);
  });
});

describe("Sluice's API answers", () => {
  it("carry the API security headers (HSTS behind an HTTPS proxy), on admitted and refused answers", async () => {
    const key = await keyWith([]);
    for (const res of [
      await call("GET", "/api/v1/echo", key.key),
      await call("GET", "/api/v1/echo"),
      await call("GET", "/api/v1/echo/%2F"),
    ]) {
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
    const secure = await call("GET", "/api/v1/echo", key.key, { "x-forwarded-proto": "https" });
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
  });

  it("never take the client IP from a client-sent peer header", async () => {
    const key = await keyWith([{ name: "per-ip", scope: "ip", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS }]);
    expect(
      (await call("GET", "/api/v1/echo", key.key, { "x-sluice-peer": "10.9.9.1", "x-sluice-peer-auth": "guess" }))
        .status,
    ).toBe(200);
    expectProblem(
      await call("GET", "/api/v1/echo", key.key, {
        "x-sluice-peer": "10.9.9.2",
        "x-sluice-peer-auth": "guess",
        "x-forwarded-for": "10.9.9.3",
      }),
      429,
    );
  });
});

describe("the gateway behind the data plane", () => {
  it("an admitted request to another path reaches the tenant's upstream without /api/v1; a refused one never does", async () => {
    const api = await startCountingApi();
    try {
      const tenant = await admin.createTenant();
      createdTenants.push(tenant.id);
      await admin.putTenantRules(tenant.id, [
        { name: "orders", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS, match: { path: "/orders/**" } },
      ]);
      const key = await admin.createKey(tenant.id);
      const put = await admin.request("PUT", `/api/admin/tenants/${tenant.id}/upstream`, {
        url: `http://127.0.0.1:${api.port}`,
      });
      expect(put.status).toBe(200);
      const res = await call("GET", "/api/v1/orders/42?x=1", key.key);
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.text)).toMatchObject({
        method: "GET",
        url: "/orders/42?x=1",
        tenant: tenant.id,
        key: key.id,
      });
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      expectProblem(await call("GET", "/api/v1/orders/43", key.key), 429);
      expectProblem(await call("GET", "/api/v1/orders/44"), 401);
      expect(api.count()).toBe(1);
    } finally {
      await api.stop();
    }
  });
});

/** Writes `head` on a raw socket (then `body` once 100 Continue arrives, when given), half-closing when told; all it read until close. */
function onSocket(head: string, options: { halfClose?: boolean; body?: string } = {}): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    let read = "";
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no close within 15 s; read ${JSON.stringify(read)}`)));
    socket.on("data", (chunk: Buffer) => {
      read += chunk.toString("latin1");
      if (options.body !== undefined && read.includes("100 Continue")) {
        socket.write(options.body);
        options.body = undefined;
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(read));
    socket.write(head);
    if (options.halfClose) socket.end();
  });
}

describe("reading the request as the protected API does (npm start)", () => {
  it("a fragment in the target is a 400 problem", async () => {
    const key = await keyWith([]);
    expectProblem(await call("POST", "/api/v1/login#", key.key), 400);
    expectProblem(await call("GET", "/api/v1/echo?x=1#y", key.key), 400);
    // In absolute-form too (it went to Next, which does not limit /api/v1).
    expectProblem(await call("POST", "http://api.example/api/v1/login#x", key.key), 400);
  });

  it("a half-closed client gets its answer, on both planes", async () => {
    expect(await onSocket("GET /api/v1/echo HTTP/1.1\r\nhost: x\r\n\r\n", { halfClose: true })).toMatch(
      /^HTTP\/1\.1 401 /,
    );
    expect(await onSocket("GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n", { halfClose: true })).toMatch(
      /^HTTP\/1\.1 (200|503) /,
    );
  });

  it("Expect: 100-continue: a refused request gets its 401 without 100 Continue; the control plane still gets its 100", async () => {
    const refused = await onSocket(
      "POST /api/v1/echo HTTP/1.1\r\nhost: x\r\nexpect: 100-continue\r\ncontent-length: 2\r\n\r\n",
      { body: "{}" },
    );
    expect(refused).toMatch(/^HTTP\/1\.1 401 /);
    expect(refused.toLowerCase()).toMatch(/\r\nconnection: close\r\n/);
    const control = await onSocket(
      "POST /api/admin/tenants HTTP/1.1\r\nhost: x\r\nconnection: close\r\nexpect: 100-continue\r\ncontent-length: 2\r\n\r\n",
      { body: "{}" },
    );
    expect(control).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);
  });
});
