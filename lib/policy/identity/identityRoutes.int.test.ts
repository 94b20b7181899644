/**
 * GET/PUT /api/admin/tenants/{tenantId}/identity through the route handlers (no server), against
 * the test database and the shared Redis under this file's own prefix: the defaults, a PUT as
 * stored and in force on this instance's access cache at once (host table, verifier), its audit
 * event, the per-field 422s and the 409 for another tenant's host. Cleans up its tenants (their
 * hosts, settings and audit events go with them) and its Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { adminCaller, auditCalls, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const { auth, close } = routeTestEnv("identity");
const { tenants, tenantIdentity, audit, auditRevert } = await loadRoutes(
  "tenants",
  "tenantIdentity",
  "audit",
  "auditRevert",
);
const runtime = await import("@/lib/runtime/services");
const created: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

const call = adminCaller(auth);
const get = (tenantId: string) => call(tenantIdentity, "GET", `/tenants/${tenantId}/identity`, { tenantId });
const put = (tenantId: string, body: unknown) =>
  call(tenantIdentity, "PUT", `/tenants/${tenantId}/identity`, { tenantId }, body);
const { auditOf, revert } = auditCalls(call, audit, auditRevert);
const access = () => runtime.services().access;
const unique = () => randomBytes(4).toString("hex");

async function newTenant(): Promise<string> {
  const res = await call(tenants, "POST", "/tenants", {}, { name: `identity-${unique()}` });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  await access().ready();
  return res.body.id as string;
}

const { publicKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "k1" };

describe("200", () => {
  it("GET answers the defaults for a tenant that never set any", async () => {
    const tenantId = await newTenant();
    const res = await get(tenantId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hosts: [], apiKeys: true, jwt: null, anonymous: false });
  });

  it("PUT stores them normalised, GET reads them, the host routes here at once, and it is audited", async () => {
    const tenantId = await newTenant();
    const host = `api-${unique()}.example.com`;
    const body = {
      hosts: [host.toUpperCase(), `${host}.`],
      jwt: { issuer: "https://id.example.com/", jwks: { keys: [jwk] } },
      anonymous: true,
    };
    const res = await put(tenantId, body);
    expect(res.status).toBe(200);
    const stored = {
      hosts: [host],
      apiKeys: true,
      jwt: { issuer: "https://id.example.com/", jwks: { keys: [jwk] }, subjectClaim: "sub" },
      anonymous: true,
    };
    expect(res.body).toEqual(stored);
    expect((await get(tenantId)).body).toEqual(stored);
    expect(access().tenantOfHost(host)).toBe(tenantId);
    expect(access().jwtVerifier(tenantId)).toBeDefined();
    const [event] = await auditOf(tenantId);
    expect(event).toMatchObject({ action: "identity.replace", after: stored });
    expect(event!.before).toEqual({ hosts: [], apiKeys: true, jwt: null, anonymous: false });

    // A second PUT replaces the whole: the host is released, here too.
    expect((await put(tenantId, {})).body).toEqual({ hosts: [], apiKeys: true, jwt: null, anonymous: false });
    expect(access().tenantOfHost(host)).toBeUndefined();
    expect(access().jwtVerifier(tenantId)).toBeUndefined();
  });
});

describe("revert", () => {
  it("sets the earlier settings again, audited as identity.replace.revert, and in force here at once", async () => {
    const tenantId = await newTenant();
    const [first, second] = [`first-${unique()}.example.com`, `second-${unique()}.example.com`];
    await put(tenantId, { hosts: [first] });
    await put(tenantId, { hosts: [second], anonymous: true });
    const [latest] = await auditOf(tenantId);
    const res = await revert(latest!.id);
    expect(res.status).toBe(200);
    expect((await get(tenantId)).body).toEqual({ hosts: [first], apiKeys: true, jwt: null, anonymous: false });
    expect(access().tenantOfHost(first)).toBe(tenantId);
    expect(access().tenantOfHost(second)).toBeUndefined();
    const [event] = await auditOf(tenantId);
    expect(event).toMatchObject({ action: "identity.replace.revert", revertOf: latest!.id });
  });

  it("is a 409 when one of its hosts is another tenant's now", async () => {
    const [a, b] = [await newTenant(), await newTenant()];
    const h = `moved-${unique()}.example.com`;
    await put(a, { hosts: [h] });
    await put(a, {});
    await put(b, { hosts: [h] });
    const [latest] = await auditOf(a);
    expect((await revert(latest!.id)).status).toBe(409);
    expect(access().tenantOfHost(h)).toBe(b);
  });
});

describe("409", () => {
  it("a host of another tenant is refused, naming it, and nothing changes", async () => {
    const [a, b] = [await newTenant(), await newTenant()];
    const host = `shared-${unique()}.example.com`;
    expect((await put(a, { hosts: [host] })).status).toBe(200);
    const res = await put(b, { hosts: [`own-${unique()}.example.com`, host.toUpperCase()], anonymous: true });
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toMatch(/problem\+json/);
    expect(res.body.detail).toContain(host);
    expect((await get(b)).body).toEqual({ hosts: [], apiKeys: true, jwt: null, anonymous: false });
    expect(access().tenantOfHost(host)).toBe(a);
  });
});

describe("422", () => {
  it.each([
    [{ hosts: ["api.example.com:8443"] }, "hosts.0", /port/],
    [{ hosts: ["*.example.com"] }, "hosts.0", /wildcard/],
    [{ hosts: ["10.1.2.3"] }, "hosts.0", /IP address/],
    [{ hosts: ["api.example.com/v1"] }, "hosts.0", /path/],
    [{ jwt: { jwksUrl: "http://169.254.169.254/jwks" } }, "jwt.jwksUrl", /link-local/],
    [{ jwt: { jwksUrl: "file:///etc/passwd" } }, "jwt.jwksUrl", /http or https/],
    [{ jwt: { jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } } }, "jwt.jwks.keys.0", /symmetric/],
    [{ apiKeys: "yes" }, "apiKeys", /true or false/],
  ])("%j: %s", async (body, field, message) => {
    const tenantId = await newTenant();
    const res = await put(tenantId, body);
    expect(res.status).toBe(422);
    expect(res.body.errors[field][0]).toMatch(message);
    expect((await get(tenantId)).body.hosts).toEqual([]);
  });
});

describe("404", () => {
  it("an unknown tenant", async () => {
    expect((await get("nosuchtenant")).status).toBe(404);
    expect((await put("nosuchtenant", {})).status).toBe(404);
  });
});
