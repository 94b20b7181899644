/**
 * Operator sessions through the route handlers (called directly, no server), against the test
 * database and the shared Redis under the caller's own prefix: the set-up the session test files
 * share (lib/control/auth/sessions, sessionAdminApi and loginLimit .int.test.ts). Call it at the top
 * of the file (it sets the environment config() reads, then loads the routes). It creates its own
 * operators (unique emails), and `close()` deletes exactly those (sessions cascade) with their
 * audit events, the tenants listed in `tenantIds`, and the prefix.
 */
import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { deleteTenants } from "./adminClient";
import { callRoute, ORIGIN, sessionCookieOf, type RouteAnswer } from "./routeCall";
import { TEST_DATABASE_URL } from "./sluiceEnv";
import { loadRoutes, routeTestEnv } from "./routeTestEnv";

export const PASSWORD = "correct horse battery staple";
export const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1);
export const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export async function sessionTestEnv(label: string) {
  const { token, close } = routeTestEnv(label);
  // Loaded after the environment is set: config() reads it once, on first use.
  const routes = await loadRoutes("login", "logout", "me", "tenants");
  const db = await import("@/lib/db/client");
  const { hashPassword } = await import("@/lib/control/auth/passwordHash");
  const operatorIds: string[] = [];
  const tenantIds: string[] = [];
  let ipCounter = 0;

  /** A fresh client address per scenario, so login-limit counters never leak between tests. */
  const freshIp = () => `198.51.100.${++ipCounter}`;

  async function newOperator(role: "admin" | "viewer", password = PASSWORD): Promise<{ id: string; email: string }> {
    const email = `auth-${role}-${randomBytes(5).toString("hex")}@example.com`;
    const row = await db.getDb().operator.create({ data: { email, passwordHash: await hashPassword(password), role } });
    operatorIds.push(row.id);
    return { id: row.id, email };
  }

  function logIn(
    email: string,
    password: string,
    options: { ip?: string; headers?: Record<string, string>; url?: string } = {},
  ): Promise<RouteAnswer> {
    return callRoute(routes.login.POST, {
      method: "POST",
      path: "/api/auth/login",
      body: { email, password },
      headers: { "x-forwarded-for": options.ip ?? freshIp(), origin: ORIGIN, ...options.headers },
    });
  }

  async function sessionOf(role: "admin" | "viewer"): Promise<{ email: string; cookie: string; id: string }> {
    const operator = await newOperator(role);
    const res = await logIn(operator.email, PASSWORD);
    expect(res.status).toBe(200);
    return { ...operator, cookie: sessionCookieOf(res) };
  }

  return {
    token,
    routes,
    db,
    tenantIds,
    freshIp,
    newOperator,
    logIn,
    sessionOf,
    async close() {
      const prisma = db.getDb();
      await prisma.auditEvent.deleteMany({ where: { target: { in: operatorIds.map((id) => `operator:${id}`) } } });
      await prisma.operator.deleteMany({ where: { id: { in: operatorIds } } });
      await deleteTenants(TEST_DATABASE_URL, tenantIds);
      await close();
    },
  };
}
