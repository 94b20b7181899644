/**
 * How the data plane reads a request before any rule sees it, tried as a hostile client would
 * through the gateway (issue 28, points 1 and 5): every spelling an upstream framework would route
 * to a limited path is either counted against that path's rule or refused, and never forwarded past
 * the limit. test/support/dataPlaneBed.ts: the real handler, a real limiter, a test upstream.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { dataPlaneBed } from "@/test/support/dataPlaneBed";

const bed = dataPlaneBed("reqread");
const HOUR_MS = 3_600_000;

const loginLimit = (extra: Partial<RuleInput> = {}): RuleInput => ({
  name: "login",
  algorithm: "fixed_window",
  limit: 2,
  windowMs: HOUR_MS,
  // The path the protected API sees (contract v3): /login through the gateway and forward auth alike.
  match: { methods: ["POST"], path: "/login" },
  ...extra,
});

/** Sends each target in turn; answers the statuses. */
async function statuses(
  key: string,
  method: string,
  targets: string[],
  headers: Record<string, string | string[]> = {},
) {
  const out: number[] = [];
  for (const target of targets) out.push((await bed.send(key, { method, target, headers })).status);
  return out;
}

describe("a fragment (#) in the request target", () => {
  it("is a 400 problem+json on the gateway, in the path or after the query, and never reaches the upstream", async () => {
    const { tenantId, key } = await bed.tenant([loginLimit()]);
    for (const target of ["/api/v1/login#", "/api/v1/login#x", "/api/v1/login?a=1#x", "/api/v1/echo#"]) {
      const res = await bed.send(key, { method: "POST", target });
      expect(res.status, target).toBe(400);
      expect(res.headers.get("content-type"), target).toBe("application/problem+json");
      expect(JSON.parse(res.text).detail, target).toMatch(/fragment/);
    }
    expect(bed.reached(tenantId)).toEqual([]);
    // The limit itself is intact: two pass, the third is refused.
    expect(await statuses(key, "POST", ["/api/v1/login", "/api/v1/login", "/api/v1/login"])).toEqual([200, 200, 429]);
  });

  it("is a 400 in forward auth's forwarded URI too, as the contract says of every request target", async () => {
    const { key } = await bed.tenant([loginLimit()]);
    const res = await bed.send(key, {
      target: "/api/v1/authorize",
      headers: { "x-forwarded-method": "POST", "x-forwarded-uri": "/login#x" },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).detail).toMatch(/fragment/);
    // Like every forward-auth refusal, also as a header for proxies that pass only headers on.
    expect(JSON.parse(res.headers.get("x-sluice-problem") ?? "{}").detail).toMatch(/fragment/);
    const override = await bed.send(key, {
      target: "/api/v1/authorize",
      headers: { "x-forwarded-method": "POST", "x-forwarded-uri": "/login", "x-http-method-override": "GET, POST" },
    });
    expect([override.status, JSON.parse(override.headers.get("x-sluice-problem") ?? "{}").status]).toEqual([400, 400]);
  });
});

describe("path parameters (;)", () => {
  it("/login;jsessionid=1 counts against the /login rule (as Tomcat and Spring route it) and is forwarded as sent", async () => {
    const { tenantId, key } = await bed.tenant([loginLimit()]);
    const sent = ["/api/v1/login;jsessionid=1", "/api/v1/login;a=b", "/api/v1/login;jsessionid=2", "/api/v1/login"];
    expect(await statuses(key, "POST", sent)).toEqual([200, 200, 429, 429]);
    expect(bed.reached(tenantId).map((s) => s.url)).toEqual(["/login;jsessionid=1", "/login;a=b"]);
  });

  it("a segment that is . or .. once its parameters are stripped (/..;/, Tomcat's traversal) is a 400, never forwarded", async () => {
    const { tenantId, key } = await bed.tenant([loginLimit()]);
    for (const target of ["/api/v1/public/..;/login", "/api/v1/.;x/login", "/api/v1/;x/login"]) {
      const res = await bed.send(key, { method: "POST", target });
      expect(res.status, target).toBe(400);
      expect(res.headers.get("content-type"), target).toBe("application/problem+json");
    }
    expect(bed.reached(tenantId)).toEqual([]);
  });
});

describe("method-override headers", () => {
  it("GET /api/v1/login with X-HTTP-Method-Override: POST (or X-HTTP-Method, X-Method-Override) counts against a POST-only limit", async () => {
    for (const header of ["x-http-method-override", "X-HTTP-Method", "x-method-override"]) {
      const { tenantId, key } = await bed.tenant([loginLimit()]);
      const sent = ["/api/v1/login", "/api/v1/login", "/api/v1/login"];
      expect(await statuses(key, "GET", sent, { [header]: "post" }), header).toEqual([200, 200, 429]);
      // Forwarded as sent: an API that relies on the override keeps working.
      expect(bed.reached(tenantId).map((s) => [s.method, s.headers[header.toLowerCase()]])).toEqual([
        ["GET", "post"],
        ["GET", "post"],
      ]);
    }
  });

  it("an ambiguous override (repeated, two methods, not a method) is a 400, never forwarded", async () => {
    const { tenantId, key } = await bed.tenant([loginLimit()]);
    const ambiguous: Record<string, string | string[]>[] = [
      { "x-http-method-override": ["GET", "POST"] },
      { "x-http-method-override": "GET", "x-http-method": "POST" },
      { "x-http-method-override": "GET, POST" },
      { "x-method-override": "" },
    ];
    for (const headers of ambiguous) {
      const res = await bed.send(key, { target: "/api/v1/login", headers });
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    expect(bed.reached(tenantId)).toEqual([]);
  });

  it("forward auth: the client's override header the proxy passes on counts against the overridden method's rules", async () => {
    const { key } = await bed.tenant([loginLimit()]);
    const authorize = () =>
      bed.send(key, {
        target: "/api/v1/authorize",
        headers: { "x-forwarded-method": "GET", "x-forwarded-uri": "/login", "x-http-method-override": "POST" },
      });
    const got = [];
    for (let i = 0; i < 3; i++) got.push((await authorize()).status);
    expect(got).toEqual([200, 200, 429]);
  });
});

describe("a repeated header or query parameter that a rule keys on", () => {
  const perUser = (scope: "header" | "query", scopeKey: string): RuleInput => ({
    name: "per-user",
    scope,
    scopeKey,
    algorithm: "fixed_window",
    limit: 2,
    windowMs: HOUR_MS,
  });

  it("a header sent twice with different values is a 400 (it made a fresh counter each time), never forwarded", async () => {
    const { tenantId, key } = await bed.tenant([perUser("header", "X-User-Id")]);
    const got = [];
    for (let i = 0; i < 4; i++) {
      const res = await bed.send(key, { target: "/api/v1/orders", headers: { "x-user-id": ["alice", `fresh-${i}`] } });
      got.push(res.status);
      if (res.status === 400)
        expect(JSON.parse(res.text)).toMatchObject({ attribute: { in: "header", name: "x-user-id" } });
    }
    expect(got).toEqual([400, 400, 400, 400]);
    expect(bed.reached(tenantId)).toEqual([]);
    // Sent once, the limit holds.
    expect(
      await statuses(key, "GET", ["/api/v1/orders", "/api/v1/orders", "/api/v1/orders"], { "x-user-id": "alice" }),
    ).toEqual([200, 200, 429]);
  });

  it("a query parameter given twice with different values is a 400; the same value twice counts once", async () => {
    const { key } = await bed.tenant([perUser("query", "user")]);
    expect(
      await statuses(key, "GET", ["/api/v1/orders?user=alice&user=x1", "/api/v1/orders?user=alice&user=x2"]),
    ).toEqual([400, 400]);
    expect(
      await statuses(key, "GET", [
        "/api/v1/orders?user=alice&user=alice",
        "/api/v1/orders?user=alice",
        "/api/v1/orders?user=alice",
      ]),
    ).toEqual([200, 200, 429]);
  });
});

describe("forward auth's forwarded URI", () => {
  it("with userinfo is a 400 that says so (it said the path must start with /)", async () => {
    const { key } = await bed.tenant([loginLimit()]);
    const res = await bed.send(key, {
      target: "/api/v1/authorize",
      headers: { "x-forwarded-method": "POST", "x-forwarded-uri": "http://user:pw@api.example/login" },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).detail).toMatch(/userinfo/);
    const other = await bed.send(key, {
      target: "/api/v1/authorize",
      headers: { "x-forwarded-method": "POST", "x-forwarded-uri": "ftp://api.example/login" },
    });
    expect(other.status).toBe(400);
    expect(JSON.parse(other.text).detail).toMatch(/http or https/);
  });
});

describe("POST /api/v1/check", () => {
  it("an identifier with invalid UTF-8 is a 400, not U+FFFD sharing one counter with every other such identifier", async () => {
    const { key } = await bed.tenant([{ name: "ids", scope: "identifier", limit: 1, windowMs: HOUR_MS }]);
    const body = (bad: number) =>
      Buffer.concat([Buffer.from('{"rule":"ids","identifier":"user-'), Buffer.from([bad]), Buffer.from('"}')]);
    for (const bad of [0xff, 0xfe]) {
      const res = await bed.send(key, { method: "POST", target: "/api/v1/check", body: body(bad) });
      expect(res.status, String(bad)).toBe(400);
      expect(JSON.parse(res.text).detail).toMatch(/UTF-8/);
    }
    const good = await bed.send(key, {
      method: "POST",
      target: "/api/v1/check",
      body: '{"rule":"ids","identifier":"user-\uFFFD"}',
    });
    expect([good.status, JSON.parse(good.text).allowed]).toEqual([200, true]);
  });
});

/** Writes `head` (and then `body`, when given, once `sendBody` says so) on a raw socket; answers all it read until close. */
function rawExchange(
  head: string,
  options: { halfClose?: boolean; body?: string; sendBodyWhen?: (soFar: string) => boolean } = {},
): Promise<string> {
  const url = new URL(bed.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    let read = "";
    let bodySent = false;
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no close within 10 s; read ${JSON.stringify(read)}`)));
    socket.on("data", (chunk: Buffer) => {
      read += chunk.toString("latin1");
      if (options.body !== undefined && !bodySent && options.sendBodyWhen?.(read)) {
        bodySent = true;
        socket.write(options.body);
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(read));
    socket.write(head);
    if (options.halfClose) socket.end();
  });
}

describe("the connection", () => {
  it("a client that half-closes after its request (nc -N) still gets its answer", async () => {
    const { key } = await bed.tenant([loginLimit()]);
    const answer = await rawExchange(
      `POST /api/v1/login HTTP/1.1\r\nhost: x\r\nx-api-key: ${key}\r\ncontent-length: 2\r\n\r\nhi`,
      { halfClose: true },
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const unauthenticated = await rawExchange("GET /api/v1/echo HTTP/1.1\r\nhost: x\r\n\r\n", { halfClose: true });
    expect(unauthenticated).toMatch(/^HTTP\/1\.1 401 /);
  });

  it("Expect: 100-continue: a refused request gets its 429 (or 401) without 100 Continue first, and the connection closes", async () => {
    const { tenantId, key } = await bed.tenant([loginLimit({ limit: 1 })]);
    const head = (withKey: boolean) =>
      `POST /api/v1/login HTTP/1.1\r\nhost: x\r\n${withKey ? `x-api-key: ${key}\r\n` : ""}expect: 100-continue\r\ncontent-length: 5\r\n\r\n`;
    const sendBodyWhen = (soFar: string) => soFar.includes("100 Continue");
    // Admitted: 100 Continue, then the body goes to the upstream.
    const admitted = await rawExchange(head(true).replace("host: x\r\n", "host: x\r\nconnection: close\r\n"), {
      body: "hello",
      sendBodyWhen,
    });
    expect(admitted).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(bed.reached(tenantId)).toHaveLength(1);
    for (const [withKey, status] of [
      [true, 429],
      [false, 401],
    ] as const) {
      const refused = await rawExchange(head(withKey), { body: "hello", sendBodyWhen });
      expect(refused, String(status)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(refused).not.toMatch(/100 Continue/);
      expect(refused.toLowerCase()).toMatch(/\r\nconnection: close\r\n/);
    }
    expect(bed.reached(tenantId)).toHaveLength(1);
  });

  it("Expect: 100-continue on POST /api/v1/check: the body is asked for once the call is admitted, and decided", async () => {
    const { key } = await bed.tenant([{ name: "ids", scope: "identifier", limit: 5, windowMs: HOUR_MS }]);
    const body = '{"rule":"ids","identifier":"u1"}';
    const answer = await rawExchange(
      `POST /api/v1/check HTTP/1.1\r\nhost: x\r\nx-api-key: ${key}\r\nconnection: close\r\nexpect: 100-continue\r\ncontent-length: ${body.length}\r\n\r\n`,
      { body, sendBodyWhen: (soFar) => soFar.includes("100 Continue") },
    );
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(answer).toMatch(/"allowed":true/);
  });
});

describe("the case of the path", () => {
  it("with match.caseInsensitive, /api/v1/LOGIN and /api/v1/Login count against the /login rule", async () => {
    const { tenantId, key } = await bed.tenant([
      loginLimit({ match: { methods: ["POST"], path: "/login", caseInsensitive: true } }),
    ]);
    expect(await statuses(key, "POST", ["/api/v1/LOGIN", "/api/v1/Login", "/api/v1/login", "/api/v1/lOgIn"])).toEqual([
      200, 200, 429, 429,
    ]);
    // Forwarded as sent.
    expect(bed.reached(tenantId).map((s) => s.url)).toEqual(["/LOGIN", "/Login"]);
  });

  it("by default paths are compared exactly (most routers, and the URI standard, tell case apart)", async () => {
    const { key } = await bed.tenant([loginLimit()]);
    expect(await statuses(key, "POST", ["/api/v1/LOGIN", "/api/v1/LOGIN", "/api/v1/LOGIN"])).toEqual([200, 200, 200]);
  });
});
