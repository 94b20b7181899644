/**
 * The admin API's status codes and validation for authentication, tenants and keys, calling the
 * route handlers directly (no server; test/support/adminApi.ts). Rules and audit:
 * adminRules.int.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { adminApi } from "@/test/support/adminApi";

const { routes, db, created, call, uniqueName, newTenant, newKey, auditCount, close } = await adminApi("admin");
const { tenants, tenantKeys: keys, key, tenantRules, keyRules, audit } = routes;

afterAll(close);

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
    expect(
      (await call(tenants, {}, { method: "POST", raw: JSON.stringify({ name: "x".repeat(70_000) }) })).status,
    ).toBe(413);
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
