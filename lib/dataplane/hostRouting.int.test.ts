/**
 * Tenant hosts through the real data-plane handler (test/support/dataPlaneBed.ts: a test access
 * cache, the real limiter on the shared Redis under this file's prefix, the real gateway, a test
 * upstream): a request whose Host is a tenant's is that tenant's on any path, forwarded as sent and
 * limited by its rules; its callers are Sluice keys of that tenant, JWT subjects (counted per
 * subject whatever the token) and anonymous callers (limited per IP, never by `key` rules); a
 * credential that is present but bad is a 401, never anonymous. Tokens are made by jose.
 */
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { dataPlaneBed } from "@/test/support/dataPlaneBed";

const bed = dataPlaneBed("hostrouting");
const host = () => `api-${randomBytes(4).toString("hex")}.example.com`;

const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "k1" };
const ISSUER = "https://id.example.com/";

function jwt(sub: string, jti = randomBytes(4).toString("hex")): Promise<string> {
  return new SignJWT({ sub, jti })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience("orders-api")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(privateKey);
}

const perKey = (limit: number) => ({ name: "per-key", scope: "key" as const, limit, windowMs: 60_000 });
const perIp = (limit: number) => ({ name: "per-ip", scope: "ip" as const, limit, windowMs: 60_000 });

describe("a tenant's host", () => {
  it("routes every path as sent to the tenant's upstream, limited by its rules (port and case ignored)", async () => {
    const h = host();
    const rules = [{ ...perKey(2), match: { path: "/orders/*" } }];
    const { tenantId, key } = await bed.tenant(rules, { identity: { hosts: [h] } });
    const send = (target: string) => bed.send(key, { target, headers: { host: `${h.toUpperCase()}:8443` } });
    expect((await send("/orders/42?x=1")).status).toBe(200);
    expect((await send("/api/v1/echo/a")).status).toBe(200);
    expect((await send("/orders/43")).status).toBe(200);
    const refused = await send("/orders/44");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/problem\+json/);
    expect(bed.reached(tenantId).map((s) => s.url)).toEqual(["/orders/42?x=1", "/api/v1/echo/a", "/orders/43"]);
    const [first] = bed.reached(tenantId);
    expect(first!.headers["x-api-key"]).toBeUndefined();
    expect(first!.headers["x-forwarded-host"]).toBe(`${h.toUpperCase()}:8443`);
  });

  it("is a 404 problem+json on any path when the tenant has no upstream, admin and health paths included", async () => {
    const h = host();
    const { key } = await bed.tenant([], { identity: { hosts: [h] }, upstream: false });
    for (const target of ["/orders/1", "/api/admin/tenants", "/api/health", "/"]) {
      const res = await bed.send(key, { target, headers: { host: h } });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/problem\+json/);
    }
  });

  it("refuses another tenant's key (401) and a missing credential when anonymous callers are not allowed", async () => {
    const h = host();
    await bed.tenant([], { identity: { hosts: [h] } });
    const other = await bed.tenant([]);
    expect((await bed.send(other.key, { target: "/orders/1", headers: { host: h } })).status).toBe(401);
    const none = await bed.send(null, { target: "/orders/1", headers: { host: h } });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text).detail).toMatch(/credential is required/);
  });

  it("keeps /api/v1 as it was for a Host that is no tenant's", async () => {
    const { key } = await bed.tenant([], { identity: { hosts: [host()] } });
    const res = await bed.send(key, { target: "/api/v1/echo/x", headers: { host: "sluice.example.com" } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).path).toBe("/api/v1/echo/x");
  });
});

describe("anonymous callers", () => {
  it("are limited per IP; key rules do not apply to them; another Authorization scheme passes on", async () => {
    const h = host();
    const { tenantId } = await bed.tenant([perKey(1), perIp(3)], { identity: { hosts: [h], anonymous: true } });
    const send = () => bed.send(null, { target: "/status", headers: { host: h, authorization: "Basic dXNlcjpwdw==" } });
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)["violated-policies"]).toEqual(["per-ip"]);
    const seen = bed.reached(tenantId);
    expect(seen).toHaveLength(3);
    expect(seen[0]!.headers.authorization).toBe("Basic dXNlcjpwdw==");
    expect(seen[0]!.headers["x-sluice-key"]).toBeUndefined();
  });

  it("never stand in for a bad credential: a bad key or token is a 401", async () => {
    const h = host();
    await bed.tenant([], {
      identity: { hosts: [h], anonymous: true, jwt: { issuer: ISSUER, jwks: { keys: [jwk] } } },
    });
    const badKey = await bed.send("sluice_AAAAAAAA_" + "B".repeat(32), { target: "/x", headers: { host: h } });
    expect(badKey.status).toBe(401);
    const badToken = await bed.send(null, {
      target: "/x",
      headers: { host: h, authorization: `Bearer ${(await jwt("alice")).slice(0, -4)}AAAA` },
    });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });
});

describe("hot callers on a tenant's host", () => {
  it("show the key, the JWT subject and the anonymous address, each labelled by kind", async () => {
    const h = host();
    const { tenantId, key } = await bed.tenant([perKey(2), perIp(100)], {
      identity: { hosts: [h], anonymous: true, jwt: { issuer: ISSUER, audience: "orders-api", jwks: { keys: [jwk] } } },
    });
    const send = (headers: Record<string, string>) =>
      bed.send(null, { target: "/orders/1", headers: { host: h, ...headers } });
    for (let i = 0; i < 3; i++) await send({ authorization: `Bearer ${await jwt("dora@example.com")}` });
    for (let i = 0; i < 2; i++) await send({});
    expect((await bed.send(key, { target: "/orders/1", headers: { host: h } })).status).toBe(200);
    const hot = await bed.hotCallers(tenantId);
    expect(hot.map((c) => [c.kind, c.caller, c.requests, c.refused, c.topRule?.name ?? null])).toEqual([
      ["jwt", "dora@example.com", 3, 1, "per-key"],
      ["anonymous", "127.0.0.1", 2, 0, null],
      ["key", expect.any(String), 1, 0, null],
    ]);
    expect(hot[2]!.keyName).toBe("key");
  });
});

describe("JWT callers", () => {
  it("count key rules per subject across tokens, and the upstream receives their Authorization unchanged", async () => {
    const h = host();
    const { tenantId } = await bed.tenant([perKey(2)], {
      identity: { hosts: [h], jwt: { issuer: ISSUER, audience: "orders-api", jwks: { keys: [jwk] } } },
    });
    const send = (token: string) =>
      bed.send(null, { target: "/orders/1", headers: { host: h, authorization: `Bearer ${token}` } });
    const [a1, a2, b] = [await jwt("alice"), await jwt("alice"), await jwt("bob")];
    expect(a1).not.toBe(a2);
    expect((await send(a1)).status).toBe(200);
    expect((await send(a2)).status).toBe(200);
    expect((await send(a1)).status).toBe(429);
    expect((await send(a2)).status).toBe(429);
    expect((await send(b)).status).toBe(200);
    const seen = bed.reached(tenantId);
    expect(seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${a1}`, `Bearer ${a2}`, `Bearer ${b}`]);
    expect(seen[0]!.headers["x-sluice-key"]).toBeUndefined();
  });

  it("a subject that looks like a key id does not share that key's counter", async () => {
    const h = host();
    const { key } = await bed.tenant([perKey(1)], {
      identity: { hosts: [h], jwt: { issuer: ISSUER, jwks: { keys: [jwk] } } },
    });
    const keyId = /^sluice_([A-Za-z0-9]+)_/.exec(key)![1]!;
    expect((await bed.send(key, { target: "/a", headers: { host: h } })).status).toBe(200);
    const asKey = await bed.send(null, {
      target: "/a",
      headers: { host: h, authorization: `Bearer ${await jwt(keyId)}` },
    });
    expect(asKey.status).toBe(200);
  });
});

describe("forward auth (/api/v1/authorize) on Sluice's own host", () => {
  const forwarded = (h: string, uri = "/orders/1") => ({
    "x-forwarded-method": "GET",
    "x-forwarded-uri": uri,
    "x-forwarded-host": h,
  });

  it("finds the tenant by X-Forwarded-Host: anonymous callers limited per IP, JWT callers admitted", async () => {
    const h = host();
    const { tenantId } = await bed.tenant([perIp(2)], {
      identity: { hosts: [h], anonymous: true, jwt: { issuer: ISSUER, jwks: { keys: [jwk] } } },
    });
    const send = (headers: Record<string, string> = {}) =>
      bed.send(null, { target: "/api/v1/authorize", headers: { ...forwarded(`${h}:443`), ...headers } });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.headers.get("x-sluice-tenant")).toBe(tenantId);
    expect(first.headers.get("x-sluice-key")).toBe("");
    expect((await send({ authorization: `Bearer ${await jwt("erin")}` })).status).toBe(200);
    expect((await send()).status).toBe(429);
    expect((await send({ authorization: "Bearer not.a.jwt" })).status).toBe(401);
  });

  it("refuses a Sluice key of another tenant than the forwarded host's (401) and an ambiguous X-Forwarded-Host (400)", async () => {
    const h = host();
    const own = await bed.tenant([], { identity: { hosts: [h] } });
    const other = await bed.tenant([]);
    const send = (key: string, headers: Record<string, string | string[]>) =>
      bed.send(key, { target: "/api/v1/authorize", headers });
    expect((await send(own.key, forwarded(h))).status).toBe(200);
    expect((await send(other.key, forwarded(h))).status).toBe(401);
    // A host that is no tenant's: the key's tenant, as before.
    expect((await send(other.key, forwarded("unknown.example.com"))).status).toBe(200);
    const twice = await send(own.key, { ...forwarded(h), "x-forwarded-host": [h, "evil.example.com"] });
    expect(twice.status).toBe(400);
    expect(twice.headers.get("x-sluice-problem")).not.toBeNull();
  });
});

describe("a JWKS URL through the data plane", () => {
  it("serves the keys it fetched while the URL is down (the fake-clock cases: jwtVerifier.test.ts), and is a 503 with Retry-After while never fetched", async () => {
    const { createServer } = await import("node:http");
    let up = true;
    const jwksServer = createServer((_req, res) => {
      if (!up) return res.destroy();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
    const port = (jwksServer.address() as { port: number }).port;
    try {
      const h = host();
      await bed.tenant([], { identity: { hosts: [h], jwt: { jwksUrl: `http://127.0.0.1:${port}/jwks.json` } } });
      const send = async () =>
        bed.send(null, { target: "/orders/1", headers: { host: h, authorization: `Bearer ${await jwt("gina")}` } });
      expect((await send()).status).toBe(200);
      up = false;
      expect((await send()).status).toBe(200);

      // Never fetched: another tenant whose JWKS answers nothing.
      const h2 = host();
      await bed.tenant([], { identity: { hosts: [h2], jwt: { jwksUrl: `http://127.0.0.1:${port}/jwks.json` } } });
      const unavailable = await bed.send(null, {
        target: "/orders/1",
        headers: { host: h2, authorization: `Bearer ${await jwt("gina")}` },
      });
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get("retry-after")).toBe("60");
      expect(unavailable.headers.get("content-type")).toMatch(/problem\+json/);
    } finally {
      jwksServer.closeAllConnections();
      await new Promise((resolve) => jwksServer.close(resolve));
    }
  });
});
