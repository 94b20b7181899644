/**
 * A change whose notice to the other instances could not be sent (Redis unreachable for the
 * publish) is saved and in force here, but reaches the others only at their next full refresh: the
 * admin API's answer keeps its success status and says so (`Sluice-Propagation: delayed;
 * within=15`, a `Warning`), never a bare "done" (lib/policy/changes/changeReach.ts). The publish is
 * made to fail by an injected fault; the route handlers are called directly against the test
 * database and the shared Redis under this file's prefix.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { deleteTenants, uniqueName } from "@/test/support/adminClient";
import { callRoute } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const env = routeTestEnv("reach");
const { tenants, tenantRules } = await loadRoutes("tenants", "tenantRules");
const { services } = await import("@/lib/runtime/services");
const { dataPlaneServices } = await import("@/lib/runtime/dataPlaneServices");
const created: string[] = [];

/** Every change notice of this instance fails from now on (until afterEach restores it). */
const breakPublish = () =>
  vi
    .spyOn(dataPlaneServices().monitoring.redis, "publish")
    .mockRejectedValue(new Error("Connection is closed (injected)"));

beforeAll(async () => {
  await services().access.ready();
});

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await env.close();
});

async function newTenant(): Promise<{ status: number; headers: Headers; id: string }> {
  const res = await callRoute(tenants.POST, { method: "POST", headers: env.auth, body: { name: uniqueName("reach") } });
  if (res.body?.id) created.push(res.body.id);
  return { status: res.status, headers: res.headers, id: res.body?.id };
}

const putRules = (tenantId: string) =>
  callRoute(tenantRules.PUT, {
    method: "PUT",
    headers: env.auth,
    params: { tenantId },
    body: [{ name: "per-key", limit: 7, windowMs: 60_000 }],
  });

it("a rule change that could not be announced: 200 with the rules, saying other instances apply it within 15 s", async () => {
  const { id } = await newTenant();
  const publish = breakPublish();
  const put = await putRules(id);
  expect(publish).toHaveBeenCalled();
  expect(put.status).toBe(200);
  expect(put.body).toMatchObject([{ name: "per-key", limit: 7 }]);
  expect(put.headers.get("sluice-propagation")).toBe("delayed; within=15");
  expect(put.headers.get("warning")).toMatch(
    /^199 sluice ".*other instances apply it within 15 s.*Redis unavailable\)"$/,
  );
  // In force here all the same.
  expect(
    services()
      .access.tenant(id)
      ?.rules.map((r) => r.rule.limit),
  ).toEqual([7]);
});

it("a created tenant that could not be announced: 201, saying so", async () => {
  breakPublish();
  const tenant = await newTenant();
  expect(tenant.status).toBe(201);
  expect(tenant.headers.get("sluice-propagation")).toBe("delayed; within=15");
});

it("a change announced to every instance carries neither header", async () => {
  const tenant = await newTenant();
  expect(tenant.headers.get("sluice-propagation")).toBeNull();
  const put = await putRules(tenant.id);
  expect(put.status).toBe(200);
  expect(put.headers.get("sluice-propagation")).toBeNull();
  expect(put.headers.get("warning")).toBeNull();
});
