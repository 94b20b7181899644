/**
 * Tenant hosts on a Redis Cluster (issue 29): two data planes in this process (test/support/dataPlaneBed.ts
 * with `cluster: true`: each its own Cluster client, limiter and access cache over the same tenants) on a
 * throwaway Cluster of 3 masters enforce exactly the limit across both for a JWT caller counted per
 * subject by a `key` rule, an anonymous caller limited by an `ip` rule, and a JWT caller whose `plan`
 * claim names tier `pro` with a higher same-named rule. Requests alternate between the two instances,
 * one after the other, so every count is exact whatever the machine's load. Tokens are made by jose.
 */
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { dataPlaneBed } from "@/test/support/dataPlaneBed";
import type { RawRequest } from "@/test/support/rawHttp";

const bed = dataPlaneBed("tenant-hosts-cluster", { cluster: true });
const host = () => `api-${randomBytes(4).toString("hex")}.example.com`;
const HOUR_MS = 3_600_000;

const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "k1" }] };

const jwt = (sub: string, plan?: string) =>
  new SignJWT({ sub, jti: randomBytes(4).toString("hex"), ...(plan ? { plan } : {}) })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setExpirationTime("5m")
    .sign(privateKey);

const perCaller = (limit: number) => ({ name: "per-caller", scope: "key" as const, limit, windowMs: HOUR_MS });
const perIp = (limit: number) => ({ name: "per-ip", scope: "ip" as const, limit, windowMs: HOUR_MS });

/** `times` requests one after the other, alternating between the two instances; their statuses. */
async function alternate(times: number, request: () => Promise<RawRequest>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await bed.send(null, await request(), i % 2)).status);
  return statuses;
}

const admitted = (limit: number, refused: number) => [
  ...Array<number>(limit).fill(200),
  ...Array<number>(refused).fill(429),
];

describe("tenant hosts on two instances sharing a Redis Cluster", () => {
  it("a key rule counts JWT callers per subject across both instances, each subject its own counter", async () => {
    const h = host();
    await bed.tenant([perCaller(3)], { identity: { hosts: [h], jwt: { jwks } } });
    const as = (sub: string) => async () => ({
      target: "/orders/1",
      headers: { host: h, authorization: `Bearer ${await jwt(sub)}` },
    });
    expect(await alternate(5, as("alice"))).toEqual(admitted(3, 2));
    expect(await alternate(5, as("bob"))).toEqual(admitted(3, 2));
  });

  it("an ip rule limits anonymous callers across both instances", async () => {
    const h = host();
    await bed.tenant([perCaller(1), perIp(4)], { identity: { hosts: [h], anonymous: true } });
    expect(await alternate(7, async () => ({ target: "/status", headers: { host: h } }))).toEqual(admitted(4, 3));
  });

  it("a JWT caller whose plan claim names tier pro gets the pro limit across both; one without keeps the tenant's", async () => {
    const h = host();
    await bed.tenant([perCaller(2)], {
      identity: { hosts: [h], jwt: { jwks, tierClaim: "plan" } },
      tiers: { pro: [perCaller(5)] },
    });
    const as = (sub: string, plan?: string) => async () => ({
      target: "/orders/1",
      headers: { host: h, authorization: `Bearer ${await jwt(sub, plan)}` },
    });
    expect(await alternate(8, as("carol", "pro"))).toEqual(admitted(5, 3));
    expect(await alternate(4, as("dave"))).toEqual(admitted(2, 2));
  });
});
