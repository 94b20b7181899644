/**
 * The admin API called through its route handlers directly (no server), against the test database
 * and the shared Redis under the caller's own prefix: the set-up the admin API's integration test
 * files share (lib/control/admin/adminApi.int.test.ts, adminRules.int.test.ts). Call it at the top
 * of the file (it sets the environment config() reads, then loads the routes); `close()` deletes
 * the tenants it created (keys, rules and refs cascade) and their audit events, and the prefix.
 */
import { expect } from "vitest";
import { deleteTenants } from "./adminClient";
import { TEST_DATABASE_URL } from "./sluiceEnv";
import { assertDocumentedAnswer } from "./answerConformance";
import { fillPath, loadRoutes, routePath, routeTestEnv, type Routes } from "./routeTestEnv";

export interface AdminCall {
  method?: string;
  body?: unknown;
  raw?: string;
  token?: string | null;
  query?: string;
}

// The answers are arbitrary JSON that each test reads field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnswerJson = any;

export async function adminApi(label: string) {
  const { token, close } = routeTestEnv(label);
  // Loaded after the environment is set: config() reads it once, on first use.
  const routes = await loadRoutes("tenants", "tenantKeys", "key", "tenantRules", "keyRules", "audit");
  const db = await import("@/lib/db/client");
  const created: string[] = [];

  async function call(
    handlers: Routes,
    params: Record<string, string>,
    init: AdminCall = {},
  ): Promise<{ status: number; body: AnswerJson; headers: Headers }> {
    const method = init.method ?? "GET";
    const headers: Record<string, string> = {};
    if (init.token !== null) headers.authorization = `Bearer ${init.token ?? token}`;
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    const template = routePath(handlers);
    const path = template ? fillPath(template, params) : "/api/admin";
    const request = new Request(`http://test.local${path}${init.query ?? ""}`, { method, headers, body });
    const response = await handlers[method]!(request, { params: Promise.resolve(params) });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : null;
    if (response.status >= 400) {
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(parsed.status).toBe(response.status);
    }
    const contentType = response.headers.get("content-type");
    assertDocumentedAnswer({ method, path, status: response.status, contentType, body: parsed });
    return { status: response.status, body: parsed, headers: response.headers };
  }

  const uniqueName = (name: string) => `admin-api-${name}-${Math.random().toString(36).slice(2, 10)}`;

  async function newTenant(): Promise<string> {
    const res = await call(routes.tenants, {}, { method: "POST", body: { name: uniqueName("t") } });
    expect(res.status).toBe(201);
    created.push(res.body.id);
    return res.body.id as string;
  }

  async function newKey(tenantId: string): Promise<{ id: string; key: string }> {
    const res = await call(routes.tenantKeys, { tenantId }, { method: "POST", body: { name: "a key" } });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function auditCount(tenantId: string): Promise<number> {
    return db.getDb().auditEvent.count({ where: { tenantId } });
  }

  return {
    routes,
    db,
    created,
    call,
    uniqueName,
    newTenant,
    newKey,
    auditCount,
    async close() {
      await deleteTenants(TEST_DATABASE_URL, created);
      await close();
    },
  };
}
