/**
 * Forward auth through the real proxies, from the configs Sluice ships (deploy/): Debian's Caddy
 * (forward_auth) and nginx (auth_request) on loopback ports in front of a counting test API, with
 * a built Sluice (`npm run build` first, SLUICE_TRUST_PROXY=1) deciding. A client behind each proxy
 * gets 200 from the API, 401 without a key, 429 with Retry-After past the limit (through nginx too,
 * whose auth_request would turn a 429 into a 500 without the shipped config's mapping), and only
 * admitted requests reach the API, with X-Sluice-Tenant and X-Sluice-Key a client cannot forge.
 * The three configs are equivalent (issue 28): the API never gets the client's Sluice key (other
 * credentials pass), admitted answers carry the decision's rate-limit headers, refusals are
 * Sluice's own problem body and headers, and nginx logs no error for a refusal. (Traefik, not
 * installed here, is checked from its YAML: deploy/traefikConfig.test.ts.)
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, deleteTenants, type AdminClient } from "@/test/support/adminClient";
import {
  startCaddy,
  startCountingApi,
  startNginx,
  type CountingApi,
  type FrontProxy,
} from "@/test/support/frontProxies";
import { freePort } from "@/test/support/freePort";
import { rawRequest, type RawAnswer } from "@/test/support/rawHttp";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const HOUR_MS = 3_600_000;
const LIMIT = 3;

const env = sluiceEnv("http-proxies", { SLUICE_TRUST_PROXY: "1", SLUICE_ANON_LIMIT_PER_MINUTE: "1000" });
let sluice: SluiceServer;
let admin: AdminClient;
let api: CountingApi;
const createdTenants: string[] = [];
const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "k1" };

beforeAll(async () => {
  sluice = await startSluice({ env: env.env });
  admin = adminClient(sluice.url, env.adminToken);
  api = await startCountingApi();
});

afterAll(async () => {
  await sluice?.stop();
  await api?.stop();
  await deleteTenants(TEST_DATABASE_URL, createdTenants);
  await cleanupRedis(env.prefix);
});

it("the shipped Caddyfile runs beside other services: no admin endpoint, no automatic HTTPS", () => {
  const global = /^\{\n([^}]*)\n\}/m.exec(readFileSync("deploy/caddy/Caddyfile", "utf8"));
  expect(global?.[1]).toMatch(/^\s*admin off$/m);
  expect(global?.[1]).toMatch(/^\s*auto_https off$/m);
});

const PROXIES: [string, typeof startCaddy][] = [
  ["Caddy forward_auth (deploy/caddy/Caddyfile)", startCaddy],
  ["nginx auth_request (deploy/nginx/sluice.conf)", startNginx],
];

describe.each(PROXIES)("%s", (_name, start) => {
  let proxy: FrontProxy;

  beforeAll(async () => {
    proxy = await start({ sluicePort: sluice.port, apiPort: api.port });
  });

  afterAll(async () => {
    await proxy?.stop();
  });

  const get = (target: string, headers: Record<string, string> = {}): Promise<RawAnswer> =>
    rawRequest(proxy.url, { target, headers });

  it("200 from the API when admitted, 401 without a key, 429 with Retry-After past the limit; only admitted requests reach the API", async () => {
    const tenant = await admin.createTenant();
    createdTenants.push(tenant.id);
    await admin.putTenantRules(tenant.id, [
      { name: "orders", algorithm: "sliding_log", limit: LIMIT, windowMs: HOUR_MS, match: { path: "/orders/**" } },
    ]);
    const key = await admin.createKey(tenant.id);
    const auth = { authorization: `Bearer ${key.key}` };
    const before = api.count();

    const first = await get("/orders/42?x=1", {
      ...auth,
      "x-sluice-tenant": "forged-tenant",
      "x-sluice-key": "forged-key",
    });
    expect(first.status, `${first.text}\n${proxy.log().slice(-2_000)}`).toBe(200);
    expect(first.headers.get("x-from")).toBe("protected-api");
    // The API saw the decision's tenant and key, never what the client sent.
    expect(JSON.parse(first.text)).toMatchObject({
      method: "GET",
      url: "/orders/42?x=1",
      tenant: tenant.id,
      key: key.id,
    });
    expect(api.count()).toBe(before + 1);

    const anonymous = await get("/orders/42");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toBe("application/problem+json");
    expect(anonymous.headers.get("www-authenticate")).toContain('Bearer realm="sluice"');
    expect(JSON.parse(anonymous.text)).toMatchObject({ status: 401 });
    expect(api.count()).toBe(before + 1);

    // A path the rule does not cover is admitted without being charged.
    expect((await get("/health", auth)).status).toBe(200);
    for (let i = 2; i <= LIMIT; i++) expect((await get(`/orders/${i}`, auth)).status).toBe(200);
    expect(api.count()).toBe(before + LIMIT + 1);

    const refused = await get("/orders/99", auth);
    expect(refused.status, refused.text).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Sluice's own problem body, through nginx too (which cannot pass a subrequest's body on).
    expect(JSON.parse(refused.text)).toEqual({
      status: 429,
      type: "https://iana.org/assignments/http-problem-types#quota-exceeded",
      title: "Too Many Requests",
      detail: expect.stringContaining("orders"),
      "violated-policies": ["orders"],
      retryAfterMs: expect.any(Number),
    });
    expect(refused.headers.get("ratelimit")).toMatch(/^"orders";r=0;t=\d+$/);
    expect(refused.headers.get("ratelimit-policy")).toBe('"orders";q=3;w=3600');
    expect(refused.headers.get("x-sluice-problem")).toBeNull();
    expect(api.count(), "a refused request never reaches the API").toBe(before + LIMIT + 1);
    // A refusal is no error of the proxy's (nginx logged each one at `error`).
    expect(proxy.log()).not.toMatch(/\[error\]|\[crit\]|\[alert\]/);
  });

  it("the API never gets the client's Sluice key; other credentials and the body pass; admitted answers carry the rate-limit headers", async () => {
    const tenant = await admin.createTenant();
    createdTenants.push(tenant.id);
    await admin.putTenantRules(tenant.id, [
      { name: "orders", algorithm: "sliding_log", limit: 10, windowMs: HOUR_MS, match: { path: "/orders/**" } },
    ]);
    const key = await admin.createKey(tenant.id);

    const bearer = await get("/orders/1", { authorization: `Bearer ${key.key}` });
    expect(bearer.status, bearer.text).toBe(200);
    expect(JSON.parse(bearer.text)).toMatchObject({ tenant: tenant.id, authorization: null, apiKey: null });
    expect(bearer.headers.get("ratelimit")).toMatch(/^"orders";r=9;t=\d+$/);
    expect(bearer.headers.get("ratelimit-policy")).toBe('"orders";q=10;w=3600');
    expect(bearer.headers.get("x-ratelimit-limit")).toBe("10");
    expect(bearer.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(Number(bearer.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);

    // The key in x-api-key beside the client's own Authorization for the API (not a Sluice key):
    // the key is removed, the other credential passes as sent; a body reaches the API whole.
    const apiKey = await rawRequest(proxy.url, {
      method: "POST",
      target: "/orders/2",
      headers: { "x-api-key": key.key, authorization: "Basic dXNlcjpwYXNz", "content-type": "text/plain" },
      body: "hello",
    });
    expect(apiKey.status, apiKey.text).toBe(200);
    expect(JSON.parse(apiKey.text)).toMatchObject({
      method: "POST",
      tenant: tenant.id,
      key: key.id,
      authorization: "Basic dXNlcjpwYXNz",
      apiKey: null,
      bodyBytes: 5,
    });

    // A path no rule applies to: admitted without rate-limit headers (none made up).
    const unlimited = await get("/health", { authorization: `Bearer ${key.key}` });
    expect(unlimited.status).toBe(200);
    expect(JSON.parse(unlimited.text)).toMatchObject({ authorization: null });
    expect(unlimited.headers.get("ratelimit")).toBeNull();
    expect(unlimited.headers.get("ratelimit-policy")).toBeNull();
  });

  it("fails closed when Sluice cannot be reached: the API is never asked (nginx: 503 problem+json)", async () => {
    const orphan = await start({ sluicePort: await freePort(), apiPort: api.port });
    try {
      const before = api.count();
      const answer = await rawRequest(orphan.url, {
        target: "/orders/1",
        headers: { authorization: "Bearer sluice_Ab3dEf9h_0123456789abcdefABCDEF" },
      });
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(api.count()).toBe(before);
      if (start === startNginx) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get("content-type")).toBe("application/problem+json");
        expect(answer.headers.get("retry-after")).toBe("5");
        expect(JSON.parse(answer.text)).toMatchObject({ status: 503, title: "Service Unavailable" });
      }
    } finally {
      await orphan.stop();
    }
  });

  it("a client cannot pick the path the rules see with its own X-Forwarded-Uri or X-Original-URI", async () => {
    const tenant = await admin.createTenant();
    createdTenants.push(tenant.id);
    await admin.putTenantRules(tenant.id, [
      { name: "orders", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS, match: { path: "/orders/**" } },
    ]);
    const key = await admin.createKey(tenant.id);
    const auth = { authorization: `Bearer ${key.key}` };
    expect((await get("/orders/1", auth)).status).toBe(200);
    const before = api.count();
    const spoofed = await get("/orders/2", {
      ...auth,
      "x-forwarded-method": "GET",
      "x-forwarded-uri": "/health",
      "x-original-method": "GET",
      "x-original-uri": "/health",
    });
    // nginx drops the client's X-Forwarded-* and sets X-Original-*: the rule refuses (429). Caddy
    // sets X-Forwarded-* and passes the client's X-Original-*: they disagree (400).
    expect([400, 429], spoofed.text).toContain(spoofed.status);
    expect(api.count(), "the spoofed request never reaches the API").toBe(before);
  });

  it("a tenant's host (issue 29): anonymous callers limited per IP, JWT callers per subject with their Authorization passed on, another tenant's key refused", async () => {
    const host = `api-${randomBytes(4).toString("hex")}.example.test`;
    const tenant = await admin.createTenant();
    createdTenants.push(tenant.id);
    const identity = await admin.request("PUT", `/api/admin/tenants/${tenant.id}/identity`, {
      hosts: [host],
      anonymous: true,
      jwt: { jwks: { keys: [jwk] } },
    });
    expect(identity.status).toBe(200);
    await admin.putTenantRules(tenant.id, [
      { name: "public-ip", scope: "ip", limit: 2, windowMs: HOUR_MS, match: { path: "/public/**" } },
      { name: "per-user", scope: "key", limit: 2, windowMs: HOUR_MS, match: { path: "/orders/**" } },
    ]);
    const onHost = (target: string, headers: Record<string, string> = {}) => get(target, { host, ...headers });
    const before = api.count();
    expect((await onHost("/public/a")).status).toBe(200);
    const first = await onHost("/public/b");
    expect(first.status, first.text).toBe(200);
    const decided = JSON.parse(first.text) as { tenant: string; key: string | null };
    expect(decided.tenant).toBe(tenant.id);
    // No key: nginx sends no X-Sluice-Key, Caddy an empty one (its placeholder of an absent header).
    expect(decided.key ?? "").toBe("");
    expect((await onHost("/public/c")).status).toBe(429);

    const token = await new SignJWT({ sub: "frank" })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setExpirationTime("5m")
      .sign(privateKey);
    const bearer = { authorization: `Bearer ${token}` };
    const seen = await onHost("/orders/1", bearer);
    expect(seen.status, seen.text).toBe(200);
    expect(JSON.parse(seen.text)).toMatchObject({ tenant: tenant.id, authorization: `Bearer ${token}` });
    expect((await onHost("/orders/2", bearer)).status).toBe(200);
    expect((await onHost("/orders/3", bearer)).status).toBe(429);
    expect((await onHost("/orders/4", { authorization: "Bearer not.a.jwt" })).status).toBe(401);

    const other = await admin.createTenant();
    createdTenants.push(other.id);
    const otherKey = await admin.createKey(other.id);
    expect((await onHost("/orders/5", { authorization: `Bearer ${otherKey.key}` })).status).toBe(401);
    expect(api.count()).toBe(before + 4);
  });
});
