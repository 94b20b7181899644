/**
 * GET/PUT /api/admin/tenants/{tenantId}/access through the route handlers (no server), against the
 * test database and the shared Redis under this file's own prefix, grouped by status: what each
 * answers, the 422s naming the entry, a viewer's 403, the audit trail and its revert; and what
 * admission does with the lists right after each change on this instance (the data plane in this
 * process, lib/dataplane/admission/admit.ts): deny is 403 and charges nothing, allow passes uncharged without
 * rate-limit headers. Every caller kind on every route is checked by
 * test/security/authorizationMatrix.int.test.ts. Cleans up its tenants, operator and Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { adminCaller, auditCalls, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";
import { viewerSession } from "@/test/support/viewerSession";

const { auth, close } = routeTestEnv("access");
// Loaded after the environment is set: config() reads it once, on first use.
const {
  tenants,
  tenantKeys,
  tenantRules,
  tenantAccess: access,
  audit,
  auditRevert,
  login,
  echo,
} = await loadRoutes("tenants", "tenantKeys", "tenantRules", "tenantAccess", "audit", "auditRevert", "login", "echo");
const runtime = await import("@/lib/runtime/services");
const db = await import("@/lib/db/client");
const created: string[] = [];
const operatorIds: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  if (operatorIds.length > 0) await db.getDb().operator.deleteMany({ where: { id: { in: operatorIds } } });
  await close();
});

const call = adminCaller(auth);
const get = (tenantId: string) => call(access, "GET", `/tenants/${tenantId}/access`, { tenantId });
const put = (tenantId: string, body: unknown) => call(access, "PUT", `/tenants/${tenantId}/access`, { tenantId }, body);
const { auditOf, revert } = auditCalls(call, audit, auditRevert);
/** A request of the demo route from `ip` (the in-process data plane trusts one X-Forwarded-For hop). */
const echoFrom = (apiKey: string, ip: string) =>
  callRoute(echo.GET, { path: "/api/v1/echo", headers: { authorization: `Bearer ${apiKey}`, "x-forwarded-for": ip } });

async function newTenant(): Promise<string> {
  const res = await call(tenants, "POST", "/tenants", {}, { name: `access-${randomBytes(4).toString("hex")}` });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  await runtime.services().access.ready();
  return res.body.id as string;
}

/** A tenant whose one rule allows each key 3 requests an hour, and a key of it. */
async function limitedTenant(): Promise<{ tenantId: string; keyId: string; key: string }> {
  const tenantId = await newTenant();
  const rules = await call(tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, [
    { name: "per-key", scope: "key", algorithm: "fixed_window", limit: 3, windowMs: 3_600_000 },
  ]);
  expect(rules.status).toBe(200);
  const key = await call(tenantKeys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "k" });
  expect(key.status).toBe(201);
  return { tenantId, keyId: key.body.id, key: key.body.key };
}

describe("200", () => {
  it("GET of a tenant that never set lists answers both empty", async () => {
    const tenantId = await newTenant();
    const res = await get(tenantId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ allow: [], deny: [] });
  });

  it("PUT answers the lists as stored (canonical, no repeats), GET reads them back", async () => {
    const tenantId = await newTenant();
    const res = await put(tenantId, {
      allow: ["2001:DB8::/32", "::ffff:192.0.2.1", "192.0.2.1"],
      deny: ["key:AbCd1234"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ allow: ["2001:db8::/32", "192.0.2.1"], deny: ["key:AbCd1234"] });
    expect((await get(tenantId)).body).toEqual(res.body);
  });
});

describe("admission right after the change, on this instance", () => {
  it("a denied address gets 403 problem+json and charges nothing; another address of the same key is still limited as before", async () => {
    const { tenantId, key } = await limitedTenant();
    expect((await put(tenantId, { allow: [], deny: ["203.0.113.0/24"] })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const denied = await echoFrom(key, "203.0.113.9");
      expect(denied.status).toBe(403);
      expect(denied.body.detail).toMatch(/access list/);
      expect(denied.headers.get("ratelimit")).toBeNull();
    }
    const passed = await echoFrom(key, "198.51.100.1");
    expect(passed.status).toBe(200);
    expect(passed.headers.get("x-ratelimit-remaining")).toBe("2"); // the 5 refusals charged nothing
  });

  it("an allowed address passes every rule without charging and without rate-limit headers; deny wins over allow", async () => {
    const { tenantId, key } = await limitedTenant();
    expect((await put(tenantId, { allow: ["198.51.100.0/24", "2001:db8::/32"], deny: ["198.51.100.66"] })).status).toBe(
      200,
    );
    for (let i = 0; i < 5; i++) {
      const allowed = await echoFrom(key, i % 2 ? "198.51.100.7" : "2001:db8::7");
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("ratelimit-policy")).toBeNull();
      expect(allowed.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    expect((await echoFrom(key, "198.51.100.66")).status).toBe(403);
    const counted = await echoFrom(key, "192.0.2.50");
    expect(counted.status).toBe(200);
    expect(counted.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it("deny by key refuses that key from every address; emptying the lists lifts it at once", async () => {
    const { tenantId, keyId, key } = await limitedTenant();
    expect((await put(tenantId, { allow: ["0.0.0.0/0"], deny: [`key:${keyId}`] })).status).toBe(200);
    expect((await echoFrom(key, "192.0.2.1")).status).toBe(403);
    expect((await echoFrom(key, "::ffff:192.0.2.2")).status).toBe(403);
    expect((await put(tenantId, { allow: [], deny: [] })).status).toBe(200);
    expect((await echoFrom(key, "192.0.2.1")).status).toBe(200);
  });
});

describe("403", () => {
  it("a viewer may read the lists but not change them", async () => {
    const tenantId = await newTenant();
    await put(tenantId, { allow: ["192.0.2.0/24"], deny: [] });
    const viewer = await viewerSession(login, operatorIds, "access");
    const read = await call(access, "GET", `/tenants/${tenantId}/access`, { tenantId }, undefined, viewer);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ allow: ["192.0.2.0/24"], deny: [] });
    const change = await call(
      access,
      "PUT",
      `/tenants/${tenantId}/access`,
      { tenantId },
      { allow: [], deny: [] },
      viewer,
    );
    expect(change.status).toBe(403);
    expect((await get(tenantId)).body).toEqual({ allow: ["192.0.2.0/24"], deny: [] });
  });
});

describe("404", () => {
  it.each(["GET", "PUT"])("%s of an unknown tenant, or of a value that is no tenant id", async (method) => {
    for (const tenantId of ["ZZZZZZZZ", "not-an-id"]) {
      const res = await call(
        access,
        method,
        `/tenants/${tenantId}/access`,
        { tenantId },
        method === "PUT" ? { allow: [], deny: [] } : undefined,
      );
      expect(res.status).toBe(404);
    }
  });
});

describe("422 naming the entry, nothing stored", () => {
  it.each([
    [{ allow: ["192.0.2.1", "192.0.2.300"], deny: [] }, "allow.1", "192.0.2.300"],
    [{ allow: [], deny: ["10.1.2.3/8"] }, "deny.0", "10.0.0.0/8"],
    [{ allow: [], deny: ["2001:db8::/200"] }, "deny.0", "2001:db8::/200"],
    [{ allow: ["key:short"], deny: [] }, "allow.0", "key:short"],
    [{ allow: [], deny: Array.from({ length: 1001 }, (_, i) => `10.0.${i >> 8}.${i & 255}`) }, "deny", "at most 1,000"],
    [{ deny: [] }, "allow", "allow"],
  ])("%#: %s", async (body, field, named) => {
    const tenantId = await newTenant();
    const res = await put(tenantId, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.errors[field][0]).toContain(named);
    expect((await get(tenantId)).body).toEqual({ allow: [], deny: [] });
    expect(await auditOf(tenantId)).toHaveLength(1); // tenant.create only
  });
});

describe("405", () => {
  it.each(["POST", "PATCH", "DELETE"])("%s, with Allow", async (method) => {
    const res = await call(access, method, "/tenants/AAAAAAAA/access", { tenantId: "AAAAAAAA" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PUT, HEAD");
  });
});

describe("audit and revert", () => {
  it("each change is audited with before and after; reverting sets the earlier lists again, in force at once", async () => {
    const { tenantId, key } = await limitedTenant();
    const A = { allow: ["192.0.2.0/24"], deny: [] };
    const B = { allow: [], deny: ["192.0.2.0/24"] };
    await put(tenantId, A);
    await put(tenantId, B);
    expect((await echoFrom(key, "192.0.2.5")).status).toBe(403);
    const events = (await auditOf(tenantId)).filter((e) => e.action.startsWith("access."));
    expect(events.map((e) => [e.action, e.before, e.after])).toEqual([
      ["access.replace", A, B],
      ["access.replace", { allow: [], deny: [] }, A],
    ]);
    const undo = await revert(events[0]!.id);
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ action: "access.replace.revert", before: B, after: A, revertOf: events[0]!.id });
    expect((await get(tenantId)).body).toEqual(A);
    const allowed = await echoFrom(key, "192.0.2.5");
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("x-ratelimit-remaining")).toBeNull();
  });
});
