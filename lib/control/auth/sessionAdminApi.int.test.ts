/**
 * The admin API with an operator's session cookie (route handlers called directly, no server;
 * test/support/sessionTestEnv.ts): roles, audit as operator:<email>, demotion of a live session,
 * CSRF, and the bearer token checked before the cookie.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { callRoute, ORIGIN, type RouteAnswer } from "@/test/support/routeCall";
import { sessionTestEnv } from "@/test/support/sessionTestEnv";

const { token: TOKEN, db, tenantIds, sessionOf, routes, close } = await sessionTestEnv("authAdmin");
const { tenants } = routes;

afterAll(close);

describe("the admin API with a session cookie", () => {
  const createTenant = (headers: Record<string, string>) =>
    callRoute(tenants.POST, {
      method: "POST",
      path: "/api/admin/tenants",
      body: { name: `auth-test-${randomBytes(5).toString("hex")}` },
      headers,
    });
  const remember = (res: RouteAnswer) => {
    if (res.status === 201) tenantIds.push(res.body.id);
    return res;
  };

  it("an admin session writes, audited as operator:<email>", async () => {
    const session = await sessionOf("admin");
    const res = remember(await createTenant({ cookie: session.cookie, origin: ORIGIN }));
    expect(res.status).toBe(201);
    const event = await db.getDb().auditEvent.findFirstOrThrow({ where: { tenantId: res.body.id } });
    expect(event.actor).toBe(`operator:${session.email}`);
  });

  it("a viewer session reads (200) and gets 403 on a write, which changes nothing", async () => {
    const session = await sessionOf("viewer");
    expect(
      (await callRoute(tenants.GET, { path: "/api/admin/tenants", headers: { cookie: session.cookie } })).status,
    ).toBe(200);
    const before = await db.getDb().tenant.count();
    const res = remember(await createTenant({ cookie: session.cookie, origin: ORIGIN }));
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/viewer/);
    expect(await db.getDb().tenant.count()).toBe(before);
  });

  it("a demotion takes effect on the next request of a live session", async () => {
    const session = await sessionOf("admin");
    await db.getDb().operator.update({ where: { id: session.id }, data: { role: "viewer" } });
    expect(remember(await createTenant({ cookie: session.cookie, origin: ORIGIN })).status).toBe(403);
  });

  it.each([
    ["no Origin or Referer", {}],
    ["another Origin", { origin: "http://evil.test" }],
    ["a sibling origin", { origin: "http://admin.sluice.test" }],
    ["Origin: null", { origin: "null" }],
    ["a cross-origin Referer", { referer: "http://evil.test/form" }],
  ])("CSRF: a cookie-carried write with %s is 403 and changes nothing", async (_, headers) => {
    const session = await sessionOf("admin");
    const res = remember(await createTenant({ cookie: session.cookie, ...headers }));
    expect(res.status).toBe(403);
    expect(res.body.title).toBe("Forbidden");
    expect(res.body.detail).toMatch(/Origin|origin/);
  });

  it("CSRF: a same-origin Referer suffices; bearer-token writes need neither header", async () => {
    const session = await sessionOf("admin");
    expect(remember(await createTenant({ cookie: session.cookie, referer: `${ORIGIN}/tenants` })).status).toBe(201);
    expect(remember(await createTenant({ authorization: `Bearer ${TOKEN}` })).status).toBe(201);
    expect(remember(await createTenant({ authorization: `Bearer ${TOKEN}`, origin: "http://evil.test" })).status).toBe(
      201,
    );
  });

  it("a wrong bearer token is 401 even with a valid cookie (the token is checked first)", async () => {
    const session = await sessionOf("admin");
    expect(
      remember(await createTenant({ cookie: session.cookie, origin: ORIGIN, authorization: "Bearer wrong" })).status,
    ).toBe(401);
  });
});
