/**
 * The admin API's status codes and validation, route by route, calling the route handlers directly
 * (no server) against the test database and the shared Redis under this file's own prefix.
 * Cleans up the tenants it created (keys, rules and refs cascade) and their audit events.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv, type Routes } from "@/test/support/routeTestEnv";

const { token: TOKEN, close } = routeTestEnv("admin");
// Loaded after the environment is set: config() reads it once, on first use.
const { tenants, tenantKeys: keys, key, tenantRules, keyRules, audit } = await loadRoutes("tenants", "tenantKeys", "key", "tenantRules", "keyRules", "audit");
const db = await import("@/lib/db/client");
const created: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

interface Call {
  method?: string;
  body?: unknown;
  raw?: string;
  token?: string | null;
  query?: string;
}

// The answers are arbitrary JSON that each test reads field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(routes: Routes, params: Record<string, string>, init: Call = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const method = init.method ?? "GET";
  const headers: Record<string, string> = {};
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? TOKEN}`;
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const request = new Request(`http://test.local/api/admin${init.query ?? ""}`, { method, headers, body });
  const response = await routes[method]!(request, { params: Promise.resolve(params) });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (response.status >= 400) {
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(parsed.status).toBe(response.status);
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

const uniqueName = (label: string) => `admin-api-${label}-${Math.random().toString(36).slice(2, 10)}`;

async function newTenant(): Promise<string> {
  const res = await call(tenants, {}, { method: "POST", body: { name: uniqueName("t") } });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  return res.body.id as string;
}

async function newKey(tenantId: string): Promise<{ id: string; key: string }> {
  const res = await call(keys, { tenantId }, { method: "POST", body: { name: "a key" } });
  expect(res.status).toBe(201);
  return res.body;
}

async function auditCount(tenantId: string): Promise<number> {
  return db.getDb().auditEvent.count({ where: { tenantId } });
}

describe("authentication (every route)", () => {
  const routes = () =>
    [
      ["GET /tenants", tenants, {}, "GET"],
      ["POST /tenants", tenants, {}, "POST"],
      ["GET keys", keys, { tenantId: "AAAAAAAA" }, "GET"],
      ["POST keys", keys, { tenantId: "AAAAAAAA" }, "POST"],
      ["DELETE key", key, { keyId: "AAAAAAAA" }, "DELETE"],
      ["GET tenant rules", tenantRules, { tenantId: "AAAAAAAA" }, "GET"],
      ["PUT tenant rules", tenantRules, { tenantId: "AAAAAAAA" }, "PUT"],
      ["GET key rules", keyRules, { keyId: "AAAAAAAA" }, "GET"],
      ["PUT key rules", keyRules, { keyId: "AAAAAAAA" }, "PUT"],
      ["GET audit", audit, {}, "GET"],
    ] as const;

  it("answers 401 without a token and with a wrong one, before anything else", async () => {
    for (const [, routesOf, params, method] of routes()) {
      for (const token of [null, "wrong-token"]) {
        const res = await call(routesOf, params, { method, token, body: method === "GET" ? undefined : [] });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toContain("Bearer");
      }
    }
  });
});

describe("tenants", () => {
  it("POST 201 with id, name and createdAt; GET lists it; the name is trimmed", async () => {
    const name = uniqueName("created");
    const res = await call(tenants, {}, { method: "POST", body: { name: `  ${name}  ` } });
    expect(res.status).toBe(201);
    created.push(res.body.id);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9A-Za-z]{8}$/), name, createdAt: expect.any(String) });
    const list = await call(tenants, {});
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual({ ...res.body, keyCount: 0 });
    expect(await auditCount(res.body.id)).toBe(1);
  });

  it("POST 409 on a duplicate name, writing nothing", async () => {
    const name = uniqueName("dup");
    const first = await call(tenants, {}, { method: "POST", body: { name } });
    created.push(first.body.id);
    const again = await call(tenants, {}, { method: "POST", body: { name } });
    expect(again.status).toBe(409);
    expect(await db.getDb().tenant.count({ where: { name } })).toBe(1);
  });

  it("POST markup and non-ASCII names are accepted as text", async () => {
    const name = `<img src=x onerror=alert(1)> ü ${uniqueName("x")}`;
    const res = await call(tenants, {}, { method: "POST", body: { name } });
    expect(res.status).toBe(201);
    created.push(res.body.id);
    expect(res.body.name).toBe(name);
  });

  it.each([
    ["an empty name", { name: "" }, "name", "name must not be empty"],
    ["a blank name", { name: "   " }, "name", "name must not be empty"],
    ["a 129-character name", { name: "x".repeat(129) }, "name", "name must be at most 128 characters"],
    ["a number", { name: 42 }, "name", "name is required and must be text"],
    ["no name", {}, "name", "name is required and must be text"],
    ["an unknown field", { name: "ok", extra: 1 }, "", 'Unrecognized key: "extra"'],
  ])("POST 422 for %s, naming the field", async (_, body, field, message) => {
    const res = await call(tenants, {}, { method: "POST", body });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toContain(message);
  });

  it("POST 400 for malformed JSON and 413 for a body over 64 KiB", async () => {
    expect((await call(tenants, {}, { method: "POST", raw: "{not json" })).status).toBe(400);
    expect((await call(tenants, {}, { method: "POST", raw: "" })).status).toBe(400);
    expect((await call(tenants, {}, { method: "POST", raw: JSON.stringify({ name: "x".repeat(70_000) }) })).status).toBe(413);
  });

  it("answers 405 with Allow for other methods", async () => {
    const res = await call(tenants, {}, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD");
  });
});

describe("keys", () => {
  it("POST 201 shows the key once; GET never shows the secret or its hash; both 404 for an unknown tenant", async () => {
    const tenantId = await newTenant();
    const createdKey = await newKey(tenantId);
    expect(createdKey.key).toMatch(new RegExp(`^sluice_${createdKey.id}_[0-9A-Za-z]{22}$`));
    const stored = await db.getDb().apiKey.findUniqueOrThrow({ where: { id: createdKey.id } });
    expect(stored.secretHash).not.toContain(createdKey.key);
    const list = await call(keys, { tenantId });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(createdKey.key.slice(-22));
    expect(text).not.toContain(stored.secretHash);
    expect(list.body[0]).toMatchObject({ id: createdKey.id, prefix: `sluice_${createdKey.id}`, revokedAt: null });
    expect((await call(keys, { tenantId: "ZZZZZZZZ" })).status).toBe(404);
    expect((await call(keys, { tenantId: "ZZZZZZZZ" }, { method: "POST", body: { name: "k" } })).status).toBe(404);
    expect((await call(keys, { tenantId: "not-an-id!" })).status).toBe(404);
  });

  it("POST 422 for a bad name", async () => {
    const tenantId = await newTenant();
    const res = await call(keys, { tenantId }, { method: "POST", body: { name: "" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toContain("name must not be empty");
  });

  it("DELETE 204 revokes (audited once), again 204 without a second event, 404 for an unknown key", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    const before = await auditCount(tenantId);
    expect((await call(key, { keyId: k.id }, { method: "DELETE" })).status).toBe(204);
    expect((await call(key, { keyId: k.id }, { method: "DELETE" })).status).toBe(204);
    expect(await auditCount(tenantId)).toBe(before + 1);
    const got = await call(key, { keyId: k.id });
    expect(got.body.revokedAt).not.toBeNull();
    expect((await call(key, { keyId: "ZZZZZZZZ" }, { method: "DELETE" })).status).toBe(404);
  });
});

const rule = { name: "per-key", limit: 10, windowMs: 60_000 };

describe("rules", () => {
  it("tenant PUT 200 answers the stored list with defaults filled; GET returns it; one audit event with before and after", async () => {
    const tenantId = await newTenant();
    const before = await auditCount(tenantId);
    const put = await call(tenantRules, { tenantId }, { method: "PUT", body: [rule, { name: "ids", scope: "identifier", limit: 5, windowMs: 1000 }] });
    expect(put.status).toBe(200);
    expect(put.body[0]).toEqual({ ...rule, scope: "key", algorithm: "sliding_window", burst: 10, cost: 1, match: {}, blockMs: 0, failMode: "open", mode: "enforce" });
    expect((await call(tenantRules, { tenantId })).body).toEqual(put.body);
    expect(await auditCount(tenantId)).toBe(before + 1);
    const event = await db.getDb().auditEvent.findFirstOrThrow({ where: { tenantId, action: "rules.replace" } });
    expect(event.before).toEqual([]);
    expect(event.after).toEqual(put.body);
  });

  it("accepts { rules: [...] } too, and 404 for an unknown owner", async () => {
    const tenantId = await newTenant();
    expect((await call(tenantRules, { tenantId }, { method: "PUT", body: { rules: [rule] } })).status).toBe(200);
    expect((await call(tenantRules, { tenantId: "ZZZZZZZZ" }, { method: "PUT", body: [rule] })).status).toBe(404);
    expect((await call(tenantRules, { tenantId: "ZZZZZZZZ" })).status).toBe(404);
    expect((await call(keyRules, { keyId: "ZZZZZZZZ" }, { method: "PUT", body: [rule] })).status).toBe(404);
    expect((await call(keyRules, { keyId: "ZZZZZZZZ" })).status).toBe(404);
  });

  it.each([
    ["limit 0", { ...rule, limit: 0 }, "0.limit", "limit must be at least 1"],
    ["a fractional limit", { ...rule, limit: 1.5 }, "0.limit", "limit must be a whole number"],
    ["windowMs under 1 s", { ...rule, windowMs: 999 }, "0.windowMs", "windowMs must be at least 1000 (1 second)"],
    ["an unknown algorithm", { ...rule, algorithm: "leaky" }, "0.algorithm", "algorithm must be one of fixed_window, sliding_log, sliding_window, token_bucket, gcra, concurrency"],
    ["an unknown scope", { ...rule, scope: "user" }, "0.scope", "scope must be one of key, tenant, ip, identifier, header, query"],
    ["burst 0", { ...rule, burst: 0 }, "0.burst", "burst must be at least 1"],
    ["a negative cost", { ...rule, cost: -1 }, "0.cost", "cost must be at least 0"],
    ["a bad name", { ...rule, name: "Per Key" }, "0.name", "name must be 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit"],
    ["a relative path", { ...rule, match: { path: "admin" } }, "0.match.path", "path must start with / and contain no spaces, ? or #"],
    ["an unknown method", { ...rule, match: { methods: ["FETCH"] } }, "0.match.methods.0", "methods must be among GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"],
    ["an unknown failMode", { ...rule, failMode: "retry" }, "0.failMode", "failMode must be one of open, closed, local"],
    ["an unknown mode", { ...rule, mode: "dry-run" }, "0.mode", "mode must be one of enforce, shadow"],
  ])("tenant PUT 422 for %s, naming the field, and the old list stays", async (_, bad, field, message) => {
    const tenantId = await newTenant();
    await call(tenantRules, { tenantId }, { method: "PUT", body: [rule] });
    const res = await call(tenantRules, { tenantId }, { method: "PUT", body: [bad] });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toContain(message);
    expect((await call(tenantRules, { tenantId })).body).toHaveLength(1);
  });

  it("PUT 422 for duplicate names, for a body that is not a list, and with the `rules.` prefix in the object form", async () => {
    const tenantId = await newTenant();
    const dup = await call(tenantRules, { tenantId }, { method: "PUT", body: [rule, rule] });
    expect(dup.status).toBe(422);
    expect(dup.body.errors["1.name"]).toContain('duplicate rule name "per-key"');
    expect((await call(tenantRules, { tenantId }, { method: "PUT", body: { name: "x" } })).status).toBe(422);
    const wrapped = await call(tenantRules, { tenantId }, { method: "PUT", body: { rules: [{ ...rule, limit: 0 }] } });
    expect(wrapped.body.errors["rules.0.limit"]).toContain("limit must be at least 1");
  });

  it("key PUT: 200 for key and ip scopes, 422 for tenant and identifier scopes, 409 once the key is revoked", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    const ok = await call(keyRules, { keyId: k.id }, { method: "PUT", body: [rule, { ...rule, name: "per-ip", scope: "ip" }] });
    expect(ok.status).toBe(200);
    expect((await call(keyRules, { keyId: k.id })).body).toHaveLength(2);
    for (const scope of ["tenant", "identifier"]) {
      const res = await call(keyRules, { keyId: k.id }, { method: "PUT", body: [{ ...rule, scope }] });
      expect(res.status).toBe(422);
      expect(res.body.errors["0.scope"]).toContain(`a key rule may not have scope ${scope} (use key, ip, header or query)`);
    }
    await call(key, { keyId: k.id }, { method: "DELETE" });
    expect((await call(keyRules, { keyId: k.id }, { method: "PUT", body: [rule] })).status).toBe(409);
  });

  it("counter refs: a name keeps its ref across edits and removal, a new name gets a new one, overrides share it", async () => {
    const tenantId = await newTenant();
    const refOf = async (name: string) => (await db.getDb().ruleRef.findUnique({ where: { tenantId_name: { tenantId, name } } }))?.ref;
    await call(tenantRules, { tenantId }, { method: "PUT", body: [rule] });
    const first = await refOf("per-key");
    await call(tenantRules, { tenantId }, { method: "PUT", body: [{ ...rule, limit: 99 }, { ...rule, name: "other" }] });
    expect(await refOf("per-key")).toBe(first);
    const other = await refOf("other");
    expect(other).not.toBe(first);
    await call(tenantRules, { tenantId }, { method: "PUT", body: [] });
    await call(tenantRules, { tenantId }, { method: "PUT", body: [{ ...rule, name: "third" }, rule] });
    expect(await refOf("per-key")).toBe(first);
    expect(await refOf("third")).toBeGreaterThan(other!);
    const k = await newKey(tenantId);
    await call(keyRules, { keyId: k.id }, { method: "PUT", body: [rule] });
    expect(await db.getDb().ruleRef.count({ where: { tenantId } })).toBe(3);
  });

  it("the database refuses a rule row that breaks a contract bound (CHECK constraint)", async () => {
    const tenantId = await newTenant();
    await expect(
      db.getDb().$executeRaw`INSERT INTO "Rule" (id, "tenantId", position, name, scope, algorithm, "limit", "windowMs", burst, cost, methods, "failMode", mode, "updatedAt")
        VALUES ('bad-limit', ${tenantId}, 0, 'x', 'key', 'gcra', 0, 1000, 1, 1, '{}', 'open', 'enforce', now())`,
    ).rejects.toThrow(/Rule_limit_check|check constraint/i);
  });
});

describe("audit", () => {
  it("GET lists changes newest first, filtered by tenant, and 422 for a bad query", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    await call(tenantRules, { tenantId }, { method: "PUT", body: [rule] });
    await call(key, { keyId: k.id }, { method: "DELETE" });
    const res = await call(audit, {}, { query: `?tenantId=${tenantId}` });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { action: string }) => e.action)).toEqual(["key.revoke", "rules.replace", "key.create", "tenant.create"]);
    expect(res.body[0]).toMatchObject({ actor: "token", target: `key:${k.id}`, tenantId });
    expect(res.body[0].before.revokedAt).toBeNull();
    expect(res.body[0].after.revokedAt).not.toBeNull();
    expect(JSON.stringify(res.body)).not.toMatch(/sluice_[0-9A-Za-z]{8}_[0-9A-Za-z]{22}/);
    expect((await call(audit, {}, { query: "?tenantId=nope" })).status).toBe(422);
    expect((await call(audit, {}, { query: "?limit=0" })).status).toBe(422);
    expect((await call(audit, {}, { query: "?bogus=1" })).status).toBe(422);
  });
});
