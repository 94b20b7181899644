/**
 * What the security tests (test/security) act on, made through the real admin routes and stores
 * and removed afterwards: tenants with rules, API keys with override rules, operators, and their
 * sessions (live, expired, or ended), minted straight in the session store so each call can
 * have a session of its own.
 *
 * Call `securityEnv(label)` at the top of a test file, before anything loads config() (it sets the
 * environment through routeTestEnv). `cleanup()` deletes exactly what the file created: its
 * tenants (keys, rules and their audit events cascade or are deleted by tenant), its operators
 * (sessions cascade) with the audit events that name them, and its Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv, type RouteTestEnv } from "@/test/support/routeTestEnv";

export const PASSWORD = "correct horse battery staple";

/** A rule list that every fixture tenant holds, so tests can tell whether it changed. */
export const BASELINE_RULES = [
  {
    name: "per-key",
    scope: "key",
    algorithm: "sliding_window",
    limit: 1000,
    windowMs: 60_000,
    match: { methods: ["GET", "POST"], path: "/api/v1/echo/*" },
  },
  { name: "checked", scope: "identifier", algorithm: "fixed_window", limit: 1000, windowMs: 60_000 },
] as const;

export const BASELINE_KEY_RULES = [
  { name: "per-key", scope: "key", algorithm: "token_bucket", limit: 500, windowMs: 60_000 },
] as const;

export interface Operator {
  id: string;
  email: string;
}

export interface SecurityEnv {
  env: RouteTestEnv;
  /** Registers a tenant id for cleanup (tests that create tenants through a route). */
  trackTenant(id: string): void;
  trackOperator(id: string): void;
  /** Registers an API token id for cleanup (tests that create tokens through a route). */
  trackToken(id: string): void;
  newTenant(): Promise<{ id: string; keyId: string; key: string }>;
  newKey(tenantId: string): Promise<{ id: string; key: string }>;
  /** An operator whose password is PASSWORD (hashed once per file: argon2 is slow on purpose). */
  newOperator(role: "admin" | "viewer"): Promise<Operator>;
  /** `sluice_session=<token>` of a new session of the operator (expired when `expired`). */
  sessionCookie(operatorId: string, state?: "live" | "expired" | "ended"): Promise<string>;
  /** A client address of its own per call, so login limits never carry over between cases. */
  freshIp(): string;
  cleanup(): Promise<void>;
}

export const uniqueLabel = (label: string): string => `sec-${label}-${randomBytes(5).toString("hex")}`;

export function tokenOfCookie(cookie: string): string {
  return cookie.slice(cookie.indexOf("=") + 1);
}

export function securityEnv(label: string): SecurityEnv {
  const env = routeTestEnv(label);
  const tenantIds: string[] = [];
  const operatorIds: string[] = [];
  const tokenIds: string[] = [];
  let ip = 0;
  let passwordHash: Promise<string> | undefined;
  const ipBase = randomBytes(2);
  const freshIp = () => {
    ip++;
    return `10.${ipBase[0]}.${(ip >> 8) & 255}.${ip & 255}`;
  };
  const routes = () => loadRoutes("tenants", "tenantKeys", "tenantRules", "keyRules");

  return {
    env,
    freshIp,
    trackTenant: (id) => void tenantIds.push(id),
    trackOperator: (id) => void operatorIds.push(id),
    trackToken: (id) => void tokenIds.push(id),
    async newKey(tenantId) {
      const { tenantKeys } = await routes();
      const res = await callRoute(tenantKeys.POST, {
        method: "POST",
        params: { tenantId },
        body: { name: uniqueLabel("key") },
        headers: env.auth,
      });
      expect(res.status).toBe(201);
      return { id: res.body.id, key: res.body.key };
    },
    async newTenant() {
      const { tenants, tenantRules, keyRules } = await routes();
      const res = await callRoute(tenants.POST, {
        method: "POST",
        body: { name: uniqueLabel("tenant") },
        headers: env.auth,
      });
      expect(res.status).toBe(201);
      const id = res.body.id as string;
      tenantIds.push(id);
      const rules = await callRoute(tenantRules.PUT, {
        method: "PUT",
        params: { tenantId: id },
        body: BASELINE_RULES,
        headers: env.auth,
      });
      expect(rules.status).toBe(200);
      const key = await this.newKey(id);
      const keyOverrides = await callRoute(keyRules.PUT, {
        method: "PUT",
        params: { keyId: key.id },
        body: BASELINE_KEY_RULES,
        headers: env.auth,
      });
      expect(keyOverrides.status).toBe(200);
      return { id, keyId: key.id, key: key.key };
    },
    async newOperator(role) {
      const db = (await import("@/lib/db/client")).getDb();
      const { hashPassword } = await import("@/lib/control/auth/passwordHash");
      passwordHash ??= hashPassword(PASSWORD);
      const email = `${uniqueLabel(role)}@example.com`;
      const row = await db.operator.create({ data: { email, passwordHash: await passwordHash, role } });
      operatorIds.push(row.id);
      return { id: row.id, email };
    },
    async sessionCookie(operatorId, state = "live") {
      const { createSession, deleteSession } = await import("@/lib/control/auth/sessionStore");
      const { SESSION_COOKIE, SESSION_TTL_MS } = await import("@/lib/control/auth/sessionCookie");
      const createdAt = state === "expired" ? new Date(Date.now() - SESSION_TTL_MS - 60_000) : new Date();
      const { token } = await createSession(operatorId, createdAt);
      if (state === "ended") await deleteSession(token);
      return `${SESSION_COOKIE}=${token}`;
    },
    async cleanup() {
      const db = (await import("@/lib/db/client")).getDb();
      await db.auditEvent.deleteMany({ where: { target: { in: operatorIds.map((id) => `operator:${id}`) } } });
      await db.operator.deleteMany({ where: { id: { in: operatorIds } } });
      await db.auditEvent.deleteMany({ where: { target: { in: tokenIds.map((id) => `token:${id}`) } } });
      await db.adminToken.deleteMany({ where: { id: { in: tokenIds } } });
      await deleteTenants(TEST_DATABASE_URL, tenantIds);
      await env.close();
    },
  };
}

/** What the matrix and the fuzzers act on (made once per test file by `createFixture`). */
export interface Fixture {
  sec: SecurityEnv;
  tenantId: string;
  keyId: string;
  apiKey: string;
  /** A viewer that PATCH calls set to viewer again (a change that changes nothing). */
  targetOperatorId: string;
  /** An operator that logs in through the login route. */
  loginEmail: string;
  /** A rules change of the tenant, revertible any number of times. */
  auditId: string;
}

export async function createFixture(sec: SecurityEnv): Promise<Fixture> {
  const tenant = await sec.newTenant();
  const target = await sec.newOperator("viewer");
  const login = await sec.newOperator("viewer");
  const db = (await import("@/lib/db/client")).getDb();
  const event = await db.auditEvent.findFirst({
    where: { tenantId: tenant.id, action: "rules.replace", target: `tenant:${tenant.id}` },
    orderBy: { id: "desc" },
  });
  expect(event).not.toBeNull();
  return {
    sec,
    tenantId: tenant.id,
    keyId: tenant.keyId,
    apiKey: tenant.key,
    targetOperatorId: target.id,
    loginEmail: login.email,
    auditId: String(event!.id),
  };
}
