/**
 * GET/PUT/DELETE /api/admin/tenants/{tenantId}/upstream through the route handlers (no server),
 * against the test database and the shared Redis under this file's own prefix, grouped by status:
 * what each answers, the per-field 422s, the audit trail written with each change and its revert,
 * and the upstream this instance's access cache serves to the gateway right after each change.
 * Who may call what (viewers 403, no credentials 401) is checked for every route by
 * test/security/authorizationMatrix.int.test.ts. Cleans up its tenants (their upstreams and audit
 * events go with them) and its Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { adminCaller, auditCalls, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const { auth, close } = routeTestEnv("upstream");
// Loaded after the environment is set: config() reads it once, on first use.
const {
  tenants,
  tenant,
  tenantUpstream: upstream,
  audit,
  auditRevert,
} = await loadRoutes("tenants", "tenant", "tenantUpstream", "audit", "auditRevert");
const runtime = await import("@/lib/runtime/services");
const created: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

const call = adminCaller(auth);
const get = (tenantId: string) => call(upstream, "GET", `/tenants/${tenantId}/upstream`, { tenantId });
const put = (tenantId: string, body: unknown) =>
  call(upstream, "PUT", `/tenants/${tenantId}/upstream`, { tenantId }, body);
const del = (tenantId: string) => call(upstream, "DELETE", `/tenants/${tenantId}/upstream`, { tenantId });
const { auditOf, revert } = auditCalls(call, audit, auditRevert);
/** What this instance's gateway would forward to (the access cache, no Postgres). */
const inForce = (tenantId: string) => runtime.services().access.upstreamFor(tenantId);

async function newTenant(): Promise<string> {
  const res = await call(tenants, "POST", "/tenants", {}, { name: `upstream-${randomBytes(4).toString("hex")}` });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  await runtime.services().access.ready();
  return res.body.id as string;
}

describe("200", () => {
  it("PUT answers the upstream as stored (normalised, default timeout), GET reads it, and it is in force here at once", async () => {
    const tenantId = await newTenant();
    const res = await put(tenantId, { url: "HTTPS://Orders.Example.com/v2/" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: "https://orders.example.com/v2", timeoutMs: 30_000 });
    expect((await get(tenantId)).body).toEqual(res.body);
    expect(inForce(tenantId)).toEqual(res.body);
  });

  it("a second PUT replaces the first", async () => {
    const tenantId = await newTenant();
    await put(tenantId, { url: "http://127.0.0.1:9001" });
    const res = await put(tenantId, { url: "http://127.0.0.1:9002", timeoutMs: 500 });
    expect(res.body).toEqual({ url: "http://127.0.0.1:9002", timeoutMs: 500 });
    expect(inForce(tenantId)).toEqual({ url: "http://127.0.0.1:9002", timeoutMs: 500 });
  });
});

describe("204", () => {
  it("DELETE removes it: GET is 404 after, and this instance no longer forwards", async () => {
    const tenantId = await newTenant();
    await put(tenantId, { url: "http://127.0.0.1:9001" });
    expect((await del(tenantId)).status).toBe(204);
    expect((await get(tenantId)).status).toBe(404);
    expect(inForce(tenantId)).toBeUndefined();
  });
});

describe("404", () => {
  it("GET and DELETE of a tenant without an upstream", async () => {
    const tenantId = await newTenant();
    const got = await get(tenantId);
    expect(got.status).toBe(404);
    expect(got.body.detail).toMatch(/has no upstream/);
    expect((await del(tenantId)).status).toBe(404);
    expect(await auditOf(tenantId)).toHaveLength(1); // tenant.create only: nothing was changed
  });

  it.each(["GET", "PUT", "DELETE"])("%s of an unknown tenant, or of a value that is no tenant id", async (method) => {
    for (const tenantId of ["ZZZZZZZZ", "not-an-id"]) {
      const res = await call(
        upstream,
        method,
        `/tenants/${tenantId}/upstream`,
        { tenantId },
        method === "PUT" ? { url: "http://a.test" } : undefined,
      );
      expect(res.status).toBe(404);
    }
  });
});

describe("422 per field, nothing stored", () => {
  it.each([
    [{ url: "ftp://a.test" }, "url"],
    [{ url: "https://u:p@a.test" }, "url"],
    [{ url: "https://a.test/?q=1" }, "url"],
    [{ url: "https://a.test/#f" }, "url"],
    [{ url: "relative/path" }, "url"],
    [{ url: "http://169.254.169.254/latest/meta-data" }, "url"],
    [{ url: "http://[fe80::1]:8080" }, "url"],
    [{ url: "http://[::ffff:169.254.169.254]" }, "url"],
    [{ url: "http://a.test:0" }, "url"],
    [{ url: "http://a.test", timeoutMs: 50 }, "timeoutMs"],
    [{ url: "http://a.test", timeoutMs: 200_000 }, "timeoutMs"],
  ])("%j", async (body, field) => {
    const tenantId = await newTenant();
    const res = await put(tenantId, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect((await get(tenantId)).status).toBe(404);
  });

  it("a body that is not JSON is a 400", async () => {
    const tenantId = await newTenant();
    const res = await callRoute(upstream.PUT, {
      method: "PUT",
      path: `/api/admin/tenants/${tenantId}/upstream`,
      params: { tenantId },
      rawBody: "url=x",
      headers: auth,
    });
    expect(res.status).toBe(400);
  });
});

describe("405", () => {
  it.each(["POST", "PATCH"])("%s, with Allow", async (method) => {
    const res = await call(upstream, method, "/tenants/AAAAAAAA/upstream", { tenantId: "AAAAAAAA" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PUT, DELETE, HEAD");
  });
});

describe("audit and revert", () => {
  it("each change is audited with before and after; reverting restores the earlier state, in force at once", async () => {
    const tenantId = await newTenant();
    const A = { url: "http://127.0.0.1:9001", timeoutMs: 1_000 };
    const B = { url: "http://127.0.0.1:9002", timeoutMs: 2_000 };
    await put(tenantId, A);
    await put(tenantId, B);
    await del(tenantId);
    const events = await auditOf(tenantId);
    expect(events.slice(0, 3).map((e) => [e.action, e.before, e.after])).toEqual([
      ["upstream.delete", B, null],
      ["upstream.replace", A, B],
      ["upstream.replace", null, A],
    ]);
    const [deleted, replaced, first] = events;

    // Reverting the DELETE sets B again.
    const undoDelete = await revert(deleted!.id);
    expect(undoDelete.status).toBe(200);
    expect(undoDelete.body).toMatchObject({
      action: "upstream.delete.revert",
      before: null,
      after: B,
      revertOf: deleted!.id,
    });
    expect(inForce(tenantId)).toEqual(B);

    // Reverting the replacement of A by B sets A.
    expect((await revert(replaced!.id)).status).toBe(200);
    expect((await get(tenantId)).body).toEqual(A);
    expect(inForce(tenantId)).toEqual(A);

    // Reverting the first PUT (there was none before) removes it; once more is a 409.
    expect((await revert(first!.id)).status).toBe(200);
    expect((await get(tenantId)).status).toBe(404);
    expect(inForce(tenantId)).toBeUndefined();
    const again = await revert(first!.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/no upstream to remove/);
  });
});

describe("signing secret (X-Sluice-Signature)", () => {
  const URL_A = "http://127.0.0.1:9001";

  it("is generated when signing is turned on, shown once, kept while on, rotated on demand, dropped when off; never audited", async () => {
    const tenantId = await newTenant();
    const on = await put(tenantId, { url: URL_A, signRequests: true });
    expect(on.status).toBe(200);
    const secret = on.body.secret as string;
    expect(secret).toMatch(/^upsec_[A-Za-z0-9_-]{43}$/);
    const hint = `upsec_…${secret.slice(-4)}`;
    expect(on.body).toEqual({ url: URL_A, timeoutMs: 30_000, signRequests: true, secretHint: hint, secret });
    const got = await get(tenantId);
    expect(got.body).toEqual({ url: URL_A, timeoutMs: 30_000, signRequests: true, secretHint: hint });
    expect(inForce(tenantId)).toEqual({ url: URL_A, timeoutMs: 30_000, signingSecret: secret });

    // Kept by a PUT that keeps signing on: not shown again.
    const kept = await put(tenantId, { url: URL_A, timeoutMs: 500, signRequests: true });
    expect(kept.body).toEqual({ url: URL_A, timeoutMs: 500, signRequests: true, secretHint: hint });
    expect(inForce(tenantId)?.signingSecret).toBe(secret);

    const rotated = await put(tenantId, { url: URL_A, signRequests: true, rotateSecret: true });
    const second = rotated.body.secret as string;
    expect(second).toMatch(/^upsec_/);
    expect(second).not.toBe(secret);
    expect(inForce(tenantId)?.signingSecret).toBe(second);

    const off = await put(tenantId, { url: URL_A });
    expect(off.body).toEqual({ url: URL_A, timeoutMs: 30_000 });
    expect(inForce(tenantId)).toEqual({ url: URL_A, timeoutMs: 30_000 });

    const events = await auditOf(tenantId);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(second);
    expect(JSON.stringify(events)).not.toContain("upsec_");
    expect(events.slice(0, 4).map((e) => [e.before, e.after])).toEqual([
      [
        { url: URL_A, timeoutMs: 30_000, signRequests: true },
        { url: URL_A, timeoutMs: 30_000 },
      ],
      [
        { url: URL_A, timeoutMs: 500, signRequests: true },
        { url: URL_A, timeoutMs: 30_000, signRequests: true, secretRotated: true },
      ],
      [
        { url: URL_A, timeoutMs: 30_000, signRequests: true },
        { url: URL_A, timeoutMs: 500, signRequests: true },
      ],
      [null, { url: URL_A, timeoutMs: 30_000, signRequests: true, secretRotated: true }],
    ]);

    // Reverting "signing off" cannot bring the secret back: 409, nothing changed.
    const refused = await revert(events[0]!.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/signing secret cannot be restored/);
    expect(inForce(tenantId)).toEqual({ url: URL_A, timeoutMs: 30_000 });

    // Turned on again, reverting the rotation sets the earlier timeout and keeps the secret stored now.
    const third = (await put(tenantId, { url: URL_A, signRequests: true })).body.secret as string;
    expect((await revert(events[1]!.id)).status).toBe(200);
    expect(inForce(tenantId)).toEqual({ url: URL_A, timeoutMs: 500, signingSecret: third });
  });

  it("GET of the upstream and of the tenant show the hint, never the secret", async () => {
    const tenantId = await newTenant();
    const secret = (await put(tenantId, { url: URL_A, signRequests: true })).body.secret as string;
    const page = await call(tenant, "GET", `/tenants/${tenantId}`, { tenantId });
    expect(page.body.upstream).toEqual({
      url: URL_A,
      timeoutMs: 30_000,
      signRequests: true,
      secretHint: `upsec_…${secret.slice(-4)}`,
    });
    expect(JSON.stringify(page.body)).not.toContain(secret);
  });
});
