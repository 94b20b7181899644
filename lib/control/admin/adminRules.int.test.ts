/**
 * The admin API's status codes and validation for rule lists (tenant and key), counter refs and
 * the audit list, calling the route handlers directly (no server; test/support/adminApi.ts).
 * Authentication, tenants and keys: adminApi.int.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { adminApi } from "@/test/support/adminApi";

const { routes, db, call, newTenant, newKey, auditCount, close } = await adminApi("adminRules");
const { key, tenantRules, keyRules, audit } = routes;
const rule = { name: "per-key", limit: 10, windowMs: 60_000 };

afterAll(close);

describe("rules", () => {
  it("tenant PUT 200 answers the stored list with defaults filled; GET returns it; one audit event with before and after", async () => {
    const tenantId = await newTenant();
    const before = await auditCount(tenantId);
    const put = await call(
      tenantRules,
      { tenantId },
      { method: "PUT", body: [rule, { name: "ids", scope: "identifier", limit: 5, windowMs: 1000 }] },
    );
    expect(put.status).toBe(200);
    expect(put.body[0]).toEqual({
      ...rule,
      scope: "key",
      algorithm: "sliding_window",
      burst: 10,
      cost: 1,
      match: {},
      blockMs: 0,
      failMode: "open",
      mode: "enforce",
    });
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
    [
      "an unknown algorithm",
      { ...rule, algorithm: "leaky" },
      "0.algorithm",
      "algorithm must be one of fixed_window, sliding_log, sliding_window, token_bucket, gcra, concurrency",
    ],
    [
      "an unknown scope",
      { ...rule, scope: "user" },
      "0.scope",
      "scope must be one of key, tenant, ip, identifier, header, query, descriptor",
    ],
    ["burst 0", { ...rule, burst: 0 }, "0.burst", "burst must be at least 1"],
    ["a negative cost", { ...rule, cost: -1 }, "0.cost", "cost must be at least 0"],
    [
      "a bad name",
      { ...rule, name: "Per Key" },
      "0.name",
      "name must be 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit",
    ],
    [
      "a relative path",
      { ...rule, match: { path: "admin" } },
      "0.match.path",
      "path must start with / and contain no spaces, ? or #",
    ],
    [
      "an unknown method",
      { ...rule, match: { methods: ["FETCH"] } },
      "0.match.methods.0",
      "methods must be among GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
    ],
    [
      "an unknown failMode",
      { ...rule, failMode: "retry" },
      "0.failMode",
      "failMode must be one of open, closed, local",
    ],
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
    const ok = await call(
      keyRules,
      { keyId: k.id },
      { method: "PUT", body: [rule, { ...rule, name: "per-ip", scope: "ip" }] },
    );
    expect(ok.status).toBe(200);
    expect((await call(keyRules, { keyId: k.id })).body).toHaveLength(2);
    for (const scope of ["tenant", "identifier"]) {
      const res = await call(keyRules, { keyId: k.id }, { method: "PUT", body: [{ ...rule, scope }] });
      expect(res.status).toBe(422);
      expect(res.body.errors["0.scope"]).toContain(
        `a key rule may not have scope ${scope} (use key, ip, header or query)`,
      );
    }
    await call(key, { keyId: k.id }, { method: "DELETE" });
    expect((await call(keyRules, { keyId: k.id }, { method: "PUT", body: [rule] })).status).toBe(409);
  });

  it("counter refs: a name keeps its ref across edits and removal, a new name gets a new one, overrides share it", async () => {
    const tenantId = await newTenant();
    const refOf = async (name: string) =>
      (await db.getDb().ruleRef.findUnique({ where: { tenantId_name: { tenantId, name } } }))?.ref;
    await call(tenantRules, { tenantId }, { method: "PUT", body: [rule] });
    const first = await refOf("per-key");
    await call(
      tenantRules,
      { tenantId },
      {
        method: "PUT",
        body: [
          { ...rule, limit: 99 },
          { ...rule, name: "other" },
        ],
      },
    );
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
      db.getDb()
        .$executeRaw`INSERT INTO "Rule" (id, "tenantId", position, name, scope, algorithm, "limit", "windowMs", burst, cost, methods, "failMode", mode, "updatedAt")
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
    expect(res.body.map((e: { action: string }) => e.action)).toEqual([
      "key.revoke",
      "rules.replace",
      "key.create",
      "tenant.create",
    ]);
    expect(res.body[0]).toMatchObject({ actor: "token", target: `key:${k.id}`, tenantId });
    expect(res.body[0].before.revokedAt).toBeNull();
    expect(res.body[0].after.revokedAt).not.toBeNull();
    expect(JSON.stringify(res.body)).not.toMatch(/sluice_[0-9A-Za-z]{8}_[0-9A-Za-z]{22}/);
    expect((await call(audit, {}, { query: "?tenantId=nope" })).status).toBe(422);
    expect((await call(audit, {}, { query: "?limit=0" })).status).toBe(422);
    expect((await call(audit, {}, { query: "?bogus=1" })).status).toBe(422);
  });
});
