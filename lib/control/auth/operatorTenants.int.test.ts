/**
 * Operators limited to tenants (Operator.tenantIds, lib/control/admin/tenantScope.ts), through the
 * route handlers with a real session cookie: the limit is set and lifted through PATCH (audited,
 * unknown tenants 422), the limited operator reaches its tenants and their monitoring, lists only
 * its own tenants (the dashboard's tenant list), and gets 403 on other tenants and instance-wide
 * calls, as a tenant-limited token does.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { callRoute, ORIGIN } from "@/test/support/routeCall";
import { loadRoutes } from "@/test/support/routeTestEnv";
import { sessionTestEnv } from "@/test/support/sessionTestEnv";

const { token: TOKEN, db, tenantIds, newOperator, sessionOf, routes, close } = await sessionTestEnv("opTenants");
const { operator, operators, tenant, traffic } = await loadRoutes("operator", "operators", "tenant", "traffic");
const bearer = { authorization: `Bearer ${TOKEN}` };

afterAll(close);

async function newTenant(): Promise<string> {
  const res = await callRoute(routes.tenants.POST, {
    method: "POST",
    path: "/api/admin/tenants",
    body: { name: `op-tenants-${randomBytes(5).toString("hex")}` },
    headers: bearer,
  });
  expect(res.status).toBe(201);
  tenantIds.push(res.body.id);
  return res.body.id;
}

const patchOperator = (id: string, body: unknown, headers: Record<string, string> = bearer) =>
  callRoute(operator.PATCH, {
    method: "PATCH",
    path: `/api/admin/operators/${id}`,
    params: { operatorId: id },
    body,
    headers,
  });

describe("operators limited to tenants", () => {
  it("a limited operator reaches its tenants and their monitoring, and gets 403 elsewhere; lifting the limit is audited", async () => {
    const [mine, alsoMine, other] = [await newTenant(), await newTenant(), await newTenant()];
    // Another admin without a limit, so limiting this one never meets the last-admin guard (409),
    // whatever operators other suites left in the database.
    await newOperator("admin");
    const session = await sessionOf("admin");
    const limited = await patchOperator(session.id, { tenantIds: [mine, alsoMine, mine] });
    expect(limited.status).toBe(200);
    expect(limited.body.tenantIds).toEqual([mine, alsoMine]);
    const event = await db.getDb().auditEvent.findFirstOrThrow({
      where: { target: `operator:${session.id}`, action: "operator.update" },
      orderBy: { at: "desc" },
    });
    expect(event.after).toMatchObject({ tenantIds: [mine, alsoMine] });

    const as = { cookie: session.cookie, origin: ORIGIN };
    const get = (handler: typeof tenant.GET, path: string, params: Record<string, string> = {}) =>
      callRoute(handler, { path, params, headers: as });
    expect((await get(tenant.GET, `/api/admin/tenants/${mine}`, { tenantId: mine })).status).toBe(200);
    expect((await get(tenant.GET, `/api/admin/tenants/${alsoMine}`, { tenantId: alsoMine })).status).toBe(200);
    expect((await get(traffic.GET, `/api/admin/monitoring/traffic?tenantId=${mine}`)).status).toBe(200);
    // The session answer names the limit, so the dashboard asks only for these tenants' data.
    const me = await get(routes.me.GET, "/api/auth/me");
    expect(me.body).toEqual({ email: session.email, role: "admin", tenantIds: [mine, alsoMine] });
    const listed = await get(routes.tenants.GET, "/api/admin/tenants");
    expect(listed.status).toBe(200);
    expect((listed.body as { id: string }[]).map((t) => t.id)).toEqual([mine, alsoMine]);
    const refused = [
      await get(tenant.GET, `/api/admin/tenants/${other}`, { tenantId: other }),
      await callRoute(routes.tenants.POST, {
        method: "POST",
        path: "/api/admin/tenants",
        body: { name: "nope" },
        headers: as,
      }),
      await get(operators.GET, "/api/admin/operators"),
      await get(traffic.GET, "/api/admin/monitoring/traffic"),
      await get(traffic.GET, `/api/admin/monitoring/traffic?tenantId=${other}`),
      await patchOperator(session.id, { tenantIds: [] }, as),
    ];
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    expect(refused[0]!.body.detail).toBe(
      `This operator is limited to tenants ${mine}, ${alsoMine}: other tenants' resources are refused.`,
    );

    const lifted = await patchOperator(session.id, { tenantIds: [] });
    expect(lifted.status).toBe(200);
    expect(lifted.body.tenantIds).toEqual([]);
    const all = await get(routes.tenants.GET, "/api/admin/tenants");
    expect((all.body as { id: string }[]).map((t) => t.id)).toEqual(expect.arrayContaining([mine, alsoMine, other]));
    expect((await get(tenant.GET, `/api/admin/tenants/${other}`, { tenantId: other })).status).toBe(200);
  });

  it("an unknown tenant is a 422 naming tenantIds, and changes nothing", async () => {
    const session = await sessionOf("viewer");
    const res = await patchOperator(session.id, { tenantIds: ["ZZZZZZZZ"] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ tenantIds: ["no tenant has the id ZZZZZZZZ"] });
    const row = await db.getDb().operator.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.tenantIds).toEqual([]);
    expect((await patchOperator(session.id, { tenantIds: "x" })).status).toBe(422);
  });
});
