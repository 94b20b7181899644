/**
 * Scoped API tokens through the route handlers (called directly, no server), against the test
 * database: create / list / delete, the secret shown once and only its hash stored, a viewer token
 * refused on writes, a tenant-limited token refused on other tenants and instance-wide calls,
 * expired and revoked tokens refused (401), token management only for unlimited admins, and the
 * audit log naming the token. Deletes the tenants and tokens it made.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { adminCaller, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";

const { auth, close } = routeTestEnv("tokens");
const routes = await loadRoutes(
  "tokens",
  "token",
  "tenants",
  "tenant",
  "tenantKeys",
  "key",
  "audit",
  "traffic",
  "refusalRate",
  "hotKeys",
  "hotDescriptors",
  "nearLimit",
  "limitedNow",
  "upstreamHealth",
);
const { tokens, token, tenants, tenant, tenantKeys, key, audit, traffic } = routes;
const { getDb } = await import("@/lib/db/client");
const admin = adminCaller(auth);
const createdTenants: string[] = [];
const createdTokens: string[] = [];

afterAll(async () => {
  await getDb().adminToken.deleteMany({ where: { id: { in: createdTokens } } });
  await deleteTenants(TEST_DATABASE_URL, createdTenants);
  await close();
});

const suffix = () => randomBytes(4).toString("hex");
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function newTenant(): Promise<string> {
  const res = await admin(tenants, "POST", "/tenants", {}, { name: `tokens-${suffix()}` });
  expect(res.status).toBe(201);
  createdTenants.push(res.body.id);
  return res.body.id;
}

async function newToken(body: Record<string, unknown>): Promise<{ id: string; name: string; token: string }> {
  const res = await admin(tokens, "POST", "/tokens", {}, { name: `t-${suffix()}`, ...body });
  expect(res.status).toBe(201);
  createdTokens.push(res.body.id);
  return res.body;
}

describe("POST/GET/DELETE /api/admin/tokens", () => {
  it("creates a token shown once, stores only its hash, lists it without secrets, and deletes it (audited)", async () => {
    const tenantId = await newTenant();
    const created = await newToken({ role: "viewer", tenantId, expiresAt: "2099-01-01T00:00:00Z" });
    expect(created).toMatchObject({ role: "viewer", tenantId });
    expect(created.token).toMatch(/^sluice_tok_[0-9A-Za-z]{32}$/);
    const row = await getDb().adminToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretHash).toBe(createHash("sha256").update(created.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const list = await admin(tokens, "GET", "/tokens", {});
    expect(list.status).toBe(200);
    const listed = list.body.find((t: { id: string }) => t.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      name: created.name,
      role: "viewer",
      tenantId,
      expiresAt: "2099-01-01T00:00:00.000Z",
      lastUsedAt: null,
      createdBy: "token",
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toMatch(/sluice_tok_|secretHash/);

    expect((await admin(token, "DELETE", `/tokens/${created.id}`, { tokenId: created.id })).status).toBe(204);
    expect((await admin(token, "DELETE", `/tokens/${created.id}`, { tokenId: created.id })).status).toBe(404);
    const events = await getDb().auditEvent.findMany({
      where: { target: `token:${created.id}` },
      orderBy: { id: "asc" },
    });
    expect(events.map((e) => [e.action, e.actor, e.tenantId])).toEqual([
      ["token.create", "token", tenantId],
      ["token.delete", "token", tenantId],
    ]);
    expect(JSON.stringify(events.map((e) => [e.before, e.after]))).not.toMatch(/sluice_tok_|secretHash/);
  });

  it("refuses bad input with 422 and a duplicate name with 409, changing nothing", async () => {
    const before = await getDb().adminToken.count();
    for (const body of [
      { name: "", role: "admin" },
      { name: "has space", role: "admin" },
      { name: `t-${suffix()}`, role: "owner" },
      { name: `t-${suffix()}`, role: "admin", expiresAt: "2001-01-01T00:00:00Z" },
      { name: `t-${suffix()}`, role: "admin", tenantId: "ZZZZZZZZ" },
      { name: `t-${suffix()}`, role: "admin", extra: 1 },
    ])
      expect((await admin(tokens, "POST", "/tokens", {}, body)).status).toBe(422);
    const first = await newToken({ role: "admin" });
    expect((await admin(tokens, "POST", "/tokens", {}, { name: first.name, role: "viewer" })).status).toBe(409);
    expect(await getDb().adminToken.count()).toBe(before + 1);
  });
});

describe("a token on the admin API", () => {
  it("an admin token writes, audited as token:<name>, and its use sets lastUsedAt (batched)", async () => {
    const t = await newToken({ role: "admin" });
    const res = await admin(tenants, "POST", "/tenants", {}, { name: `tokens-${suffix()}` }, bearer(t.token));
    expect(res.status).toBe(201);
    createdTenants.push(res.body.id);
    const event = await getDb().auditEvent.findFirstOrThrow({ where: { tenantId: res.body.id } });
    expect(event.actor).toBe(`token:${t.name}`);
    const { tokenUsage } = await import("@/lib/control/tokens/tokenUsage");
    await tokenUsage().flush();
    const row = await getDb().adminToken.findUniqueOrThrow({ where: { id: t.id } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("a viewer token reads (200) and gets 403 on a write", async () => {
    const t = await newToken({ role: "viewer" });
    expect((await admin(tenants, "GET", "/tenants", {}, undefined, bearer(t.token))).status).toBe(200);
    const res = await admin(tenants, "POST", "/tenants", {}, { name: `tokens-${suffix()}` }, bearer(t.token));
    expect(res.status).toBe(403);
  });

  it("a tenant-limited token reaches its tenant and its keys, and gets 403 on other tenants and instance-wide calls", async () => {
    const mine = await newTenant();
    const other = await newTenant();
    const t = await newToken({ role: "admin", tenantId: mine });
    const as = bearer(t.token);
    const myKey = await admin(tenantKeys, "POST", `/tenants/${mine}/keys`, { tenantId: mine }, { name: "k" }, as);
    expect(myKey.status).toBe(201);
    const otherKey = await admin(tenantKeys, "POST", `/tenants/${other}/keys`, { tenantId: other }, { name: "k" });
    expect(otherKey.status).toBe(201);

    expect((await admin(tenant, "GET", `/tenants/${mine}`, { tenantId: mine }, undefined, as)).status).toBe(200);
    expect((await admin(key, "GET", `/keys/${myKey.body.id}`, { keyId: myKey.body.id }, undefined, as)).status).toBe(
      200,
    );
    expect((await admin(audit, "GET", `/audit?tenantId=${mine}`, {}, undefined, as)).status).toBe(200);

    const refused = [
      await admin(tenant, "GET", `/tenants/${other}`, { tenantId: other }, undefined, as),
      await admin(tenantKeys, "POST", `/tenants/${other}/keys`, { tenantId: other }, { name: "x" }, as),
      await admin(key, "GET", `/keys/${otherKey.body.id}`, { keyId: otherKey.body.id }, undefined, as),
      await admin(key, "DELETE", `/keys/${otherKey.body.id}`, { keyId: otherKey.body.id }, undefined, as),
      // The contract: a tenant-scoped token gets 403 on instance-wide calls, the tenant list among
      // them (an operator limited to tenants gets its own: operatorTenants.int.test.ts).
      await admin(tenants, "GET", "/tenants", {}, undefined, as),
      await admin(tenants, "POST", "/tenants", {}, { name: `tokens-${suffix()}` }, as),
      await admin(audit, "GET", "/audit", {}, undefined, as),
      await admin(audit, "GET", `/audit?tenantId=${other}`, {}, undefined, as),
      await admin(traffic, "GET", "/monitoring/traffic", {}, undefined, as),
      await admin(tokens, "GET", "/tokens", {}, undefined, as),
      await admin(tokens, "POST", "/tokens", {}, { name: `t-${suffix()}`, role: "admin" }, as),
      await admin(token, "DELETE", `/tokens/${t.id}`, { tokenId: t.id }, undefined, as),
    ];
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    const otherKeys = await getDb().apiKey.count({ where: { tenantId: other } });
    expect(otherKeys).toBe(1);
  });

  it("a tenant-limited token reads its own tenant's monitoring, and gets 403 on another's and on instance-wide monitoring", async () => {
    const mine = await newTenant();
    const other = await newTenant();
    const as = bearer((await newToken({ role: "viewer", tenantId: mine })).token);
    const queries = [
      [routes.traffic, "/monitoring/traffic"],
      [routes.refusalRate, "/monitoring/refusal-rate"],
      [routes.hotKeys, "/monitoring/hot-keys"],
      [routes.hotDescriptors, "/monitoring/hot-descriptors"],
      [routes.nearLimit, "/monitoring/near-limit"],
      [routes.limitedNow, "/monitoring/limited"],
      [routes.upstreamHealth, "/monitoring/upstream"],
    ] as const;
    for (const [route, path] of queries) {
      const own = await admin(route, "GET", `${path}?tenantId=${mine}`, {}, undefined, as);
      expect(own.status, `${path} own tenant`).toBe(200);
      expect((await admin(route, "GET", `${path}?tenantId=${other}`, {}, undefined, as)).status, path).toBe(403);
      expect((await admin(route, "GET", path, {}, undefined, as)).status, `${path} instance-wide`).toBe(403);
      const twice = await admin(route, "GET", `${path}?tenantId=${mine}&tenantId=${other}`, {}, undefined, as);
      expect(twice.status, `${path} tenantId twice`).toBe(403);
    }
    // The audit log too: a repeated filter never passes the check on one value and answers the other.
    expect((await admin(audit, "GET", `/audit?tenantId=${mine}&tenantId=${other}`, {}, undefined, as)).status).toBe(
      403,
    );
  });

  it("token management needs an admin without a tenant limit: a viewer token gets 403 on the list", async () => {
    const t = await newToken({ role: "viewer" });
    expect((await admin(tokens, "GET", "/tokens", {}, undefined, bearer(t.token))).status).toBe(403);
  });

  it("an expired token is 401", async () => {
    const t = await newToken({ role: "admin", expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await admin(tenants, "GET", "/tenants", {}, undefined, bearer(t.token))).status).toBe(200);
    await getDb().adminToken.update({ where: { id: t.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await admin(tenants, "GET", "/tenants", {}, undefined, bearer(t.token))).status).toBe(401);
  });

  it("a revoked token is 401 on its very next call, and an unknown token-shaped secret too", async () => {
    const t = await newToken({ role: "admin" });
    expect((await admin(tenants, "GET", "/tenants", {}, undefined, bearer(t.token))).status).toBe(200);
    expect((await admin(token, "DELETE", `/tokens/${t.id}`, { tokenId: t.id })).status).toBe(204);
    expect((await admin(tenants, "GET", "/tenants", {}, undefined, bearer(t.token))).status).toBe(401);
    const unknown = `sluice_tok_${"A".repeat(32)}`;
    expect((await admin(tenants, "GET", "/tenants", {}, undefined, bearer(unknown))).status).toBe(401);
  });
});
