/**
 * Rules of scope `descriptor` through the admin API and the rule store (Postgres): stored with
 * their `match.descriptor` (its own JSON column), read back unchanged, compiled into this
 * instance's access cache for Envoy's rate limit service, refused for key overrides.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteTenants, uniqueName } from "@/test/support/adminClient";
import { callRoute } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const env = routeTestEnv("descriptor");
const { tenants, tenantKeys, tenantRules, keyRules } = await loadRoutes(
  "tenants",
  "tenantKeys",
  "tenantRules",
  "keyRules",
);
const { services } = await import("@/lib/runtime/services");
const created: string[] = [];
let tenantId: string;

const loginRule = {
  name: "login",
  scope: "descriptor",
  limit: 5,
  windowMs: 60_000,
  match: { descriptor: [{ key: "path", value: "/login" }, { key: "remote_address" }] },
};

beforeAll(async () => {
  const tenant = await callRoute(tenants.POST, {
    method: "POST",
    headers: env.auth,
    body: { name: uniqueName("descriptor") },
  });
  expect(tenant.status).toBe(201);
  created.push((tenantId = tenant.body.id));
});

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await env.close();
});

describe("descriptor rules through the admin API", () => {
  it("are stored and read back with their descriptor, and in force in the access cache when the API answers", async () => {
    const put = await callRoute(tenantRules.PUT, {
      method: "PUT",
      headers: env.auth,
      params: { tenantId },
      body: [loginRule],
    });
    expect(put.status).toBe(200);
    const stored = await callRoute(tenantRules.GET, { headers: env.auth, params: { tenantId } });
    expect(stored.body).toEqual([expect.objectContaining({ scope: "descriptor", match: loginRule.match })]);
    const cached = services().access.tenant(tenantId)!.rules;
    expect(cached.map((r) => r.rule.match.descriptor)).toEqual([loginRule.match.descriptor]);
  });

  it("a scope descriptor without match.descriptor is a 422 naming the field", async () => {
    const bare = { ...loginRule, match: undefined };
    const put = await callRoute(tenantRules.PUT, {
      method: "PUT",
      headers: env.auth,
      params: { tenantId },
      body: [bare],
    });
    expect(put.status).toBe(422);
    expect(JSON.stringify(put.body)).toMatch(/match\.descriptor is required for scope descriptor/);
  });

  it("a key override of scope descriptor is a 422", async () => {
    const key = await callRoute(tenantKeys.POST, {
      method: "POST",
      headers: env.auth,
      params: { tenantId },
      body: { name: "k" },
    });
    expect(key.status).toBe(201);
    const put = await callRoute(keyRules.PUT, {
      method: "PUT",
      headers: env.auth,
      params: { keyId: key.body.id },
      body: [loginRule],
    });
    expect(put.status).toBe(422);
    expect(JSON.stringify(put.body)).toMatch(/may not have scope descriptor/);
  });
});
