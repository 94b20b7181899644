/**
 * Tenant hosts through built servers (needs `npm run build`): two instances on one Redis and one
 * Postgres, a test upstream on the loopback. Identity settings PUT through instance A are served by
 * B; scripts/server.mjs hands every request to a tenant's host to the data plane, so Sluice's own
 * pages, admin API and health are never served there (they reach the upstream as sent, or 404
 * problem+json without one), while the same paths on another host are Sluice's as before; a JWT
 * caller is limited per subject on both instances together.
 */
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "@/test/support/rawHttp";
import { waitUntil } from "@/test/support/sluiceEnv";
import { startTestUpstream, type TestUpstream } from "@/test/support/testUpstream";
import { twoServersForSuite } from "@/test/support/twoServers";

const servers = twoServersForSuite("http-hosts", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
let upstream: TestUpstream;

const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "rsa-1" };

beforeAll(async () => {
  upstream = await startTestUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

const newHost = () => `api-${randomBytes(4).toString("hex")}.example.test`;
const reached = (tenantId: string) => upstream.seen.filter((s) => s.headers["x-sluice-tenant"] === tenantId);

async function hostedTenant(identity: Record<string, unknown>, withUpstream = true): Promise<string> {
  const tenant = await servers.adminA.createTenant();
  servers.track(tenant.id);
  if (withUpstream) {
    const up = await servers.adminA.request("PUT", `/api/admin/tenants/${tenant.id}/upstream`, { url: upstream.url });
    expect(up.status).toBe(200);
  }
  const res = await servers.adminA.request("PUT", `/api/admin/tenants/${tenant.id}/identity`, identity);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return tenant.id;
}

describe("a tenant's host on the built server", () => {
  it("never serves Sluice's own pages: admin API, health, metrics and the dashboard go to the upstream as sent", async () => {
    const host = newHost();
    const tenantId = await hostedTenant({ hosts: [host], anonymous: true });
    const targets = ["/api/admin/tenants", "/api/health", "/api/metrics", "/login", "/api/v1/echo/x?y=1"];
    for (const server of [servers.a, servers.b]) {
      // B learns the host through the change notice (well within this set-up's 10 s).
      await waitUntil(
        async () => (await rawRequest(server.url, { target: "/probe", headers: { host } })).status === 200,
        10_000,
        "the host is served",
      );
      for (const target of targets) {
        const res = await rawRequest(server.url, {
          target,
          headers: { host, authorization: `Basic ${Buffer.from("u:p").toString("base64")}` },
        });
        expect(res.status, `${target}: ${res.text}`).toBe(200);
      }
    }
    const urls = reached(tenantId).map((s) => s.url);
    for (const target of targets) expect(urls.filter((u) => u === target)).toHaveLength(2);
    // The same paths on another host are Sluice's.
    const health = await rawRequest(servers.a.url, { target: "/api/health" });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ redis: "ok", db: "ok" });
  });

  it("answers 404 problem+json on every path of a host whose tenant has no upstream", async () => {
    const host = newHost();
    await hostedTenant({ hosts: [host], anonymous: true }, false);
    await waitUntil(
      async () => (await rawRequest(servers.b.url, { target: "/", headers: { host } })).status === 404,
      10_000,
      "the host is served",
    );
    for (const target of ["/", "/api/admin/tenants", "/api/health"]) {
      const res = await rawRequest(servers.b.url, { target, headers: { host: `${host.toUpperCase()}:443` } });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/problem\+json/);
    }
  });

  it("limits a JWT caller per subject across both instances and passes its Authorization on", async () => {
    const host = newHost();
    const tenantId = await hostedTenant({ hosts: [host], jwt: { jwks: { keys: [jwk] } } });
    const rules = [{ name: "per-user", scope: "key", limit: 3, windowMs: 3_600_000 }];
    expect((await servers.adminA.request("PUT", `/api/admin/tenants/${tenantId}/rules`, rules)).status).toBe(200);
    const token = (sub: string) =>
      new SignJWT({ sub, jti: randomBytes(4).toString("hex") })
        .setProtectedHeader({ alg: "RS256", kid: "rsa-1" })
        .setExpirationTime("5m")
        .sign(privateKey);
    const send = async (url: string, sub: string) =>
      rawRequest(url, { target: "/orders/1", headers: { host, authorization: `Bearer ${await token(sub)}` } });
    await waitUntil(
      async () => (await send(servers.b.url, "probe")).headers.get("ratelimit-policy")?.includes("per-user") ?? false,
      10_000,
      "B serves the rules",
    );
    const statuses = [];
    for (const url of [servers.a.url, servers.b.url, servers.a.url, servers.b.url])
      statuses.push((await send(url, "carol")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await send(servers.a.url, "dave")).status).toBe(200);
    const carol = reached(tenantId).filter((s) => s.url === "/orders/1");
    expect(carol.every((s) => /^Bearer eyJ/.test(String(s.headers.authorization)))).toBe(true);
    const bad = await rawRequest(servers.a.url, {
      target: "/orders/1",
      headers: { host, authorization: "Bearer x.y.z" },
    });
    expect(bad.status).toBe(401);
  });
});
