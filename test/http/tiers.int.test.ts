/**
 * Tiers through built servers (needs `npm run build`): two instances on one Redis and one Postgres,
 * a test upstream on the loopback. A tier's rules PUT through instance A are in force on B; a key
 * in tier `pro` and a JWT caller whose `plan` claim (the tenant's tierClaim) says `pro` get the pro
 * limit on both instances together, while a key in no tier and a JWT caller without the claim keep
 * the tenant's. Moving the key out of the tier through A gives it the tenant's limit on B.
 */
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "@/test/support/rawHttp";
import { waitUntil } from "@/test/support/sluiceEnv";
import { startTestUpstream, type TestUpstream } from "@/test/support/testUpstream";
import { twoServersForSuite } from "@/test/support/twoServers";

const servers = twoServersForSuite("http-tiers", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
let upstream: TestUpstream;

const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "es-1" };

beforeAll(async () => {
  upstream = await startTestUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

const perCaller = (limit: number) => ({ name: "per-caller", scope: "key", limit, windowMs: 3_600_000 });

const token = (sub: string, plan?: string) =>
  new SignJWT({ sub, jti: randomBytes(4).toString("hex"), ...(plan ? { plan } : {}) })
    .setProtectedHeader({ alg: "ES256", kid: "es-1" })
    .setExpirationTime("5m")
    .sign(privateKey);

describe("tiers on two instances", () => {
  it("a key in tier pro and a JWT caller with plan pro get the pro limit on A and B together", async () => {
    const host = `api-${randomBytes(4).toString("hex")}.example.test`;
    const admin = servers.adminA;
    const tenant = await admin.createTenant();
    servers.track(tenant.id);
    const path = (rest: string) => `/api/admin/tenants/${tenant.id}${rest}`;
    expect((await admin.request("PUT", path("/upstream"), { url: upstream.url })).status).toBe(200);
    const identity = { hosts: [host], jwt: { jwks: { keys: [jwk] }, tierClaim: "plan" } };
    expect((await admin.request("PUT", path("/identity"), identity)).status).toBe(200);
    expect((await admin.request("PUT", path("/rules"), [perCaller(2)])).status).toBe(200);
    const tier = await admin.request("PUT", path("/tiers/pro/rules"), [perCaller(5)]);
    expect(tier.status, JSON.stringify(tier.body)).toBe(200);
    const created = (name: string) =>
      admin.request("POST", path("/keys"), { name, tier: "pro" }).then((res) => {
        expect(res.status).toBe(201);
        return res.body as { id: string; key: string };
      });
    const proKey = await created("pro key");
    const plainKey = await admin.createKey(tenant.id, "plain key");

    const withKey = (url: string, key: string) =>
      rawRequest(url, { target: "/orders/1", headers: { host, "x-api-key": key } });
    const withToken = async (url: string, sub: string, plan?: string) =>
      rawRequest(url, { target: "/orders/1", headers: { host, authorization: `Bearer ${await token(sub, plan)}` } });
    // B has the tier (and the host) once a pro caller there is told the pro policy.
    await waitUntil(
      async () =>
        (await withToken(servers.b.url, `probe-${randomBytes(3).toString("hex")}`, "pro")).headers
          .get("ratelimit-policy")
          ?.includes('"per-caller";q=5') ?? false,
      10_000,
      "B serves the tier's rules",
    );

    const alternate = async (send: (url: string) => Promise<{ status: number }>, times: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) statuses.push((await send(i % 2 === 0 ? servers.a.url : servers.b.url)).status);
      return statuses;
    };
    const pro = [200, 200, 200, 200, 200, 429];
    const plain = [200, 200, 429];
    expect(await alternate((url) => withKey(url, proKey.key), 6)).toEqual(pro);
    expect(await alternate((url) => withKey(url, plainKey.key), 3)).toEqual(plain);
    expect(await alternate((url) => withToken(url, "alice", "pro"), 6)).toEqual(pro);
    expect(await alternate((url) => withToken(url, "bob"), 3)).toEqual(plain);
    // A claim naming a tier without rules leaves the tenant's rules as they are.
    expect(await alternate((url) => withToken(url, "carol", "enterprise"), 3)).toEqual(plain);

    // Out of the tier through A: on B the key has the tenant's limit of 2 (5 used already).
    const fresh = await created("moving key");
    await waitUntil(
      async () => (await withKey(servers.b.url, fresh.key)).status === 200,
      10_000,
      "B knows the new key",
    );
    expect((await admin.request("PATCH", `/api/admin/keys/${fresh.id}`, { tier: null })).status).toBe(200);
    await waitUntil(
      async () =>
        (await withKey(servers.b.url, fresh.key)).headers.get("ratelimit-policy")?.includes('"per-caller";q=2') ??
        false,
      10_000,
      "B applies the key's new tier",
    );
  });
});
