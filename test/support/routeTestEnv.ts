/**
 * The set-up every integration test shares that calls the route handlers directly (no server),
 * against the test database and the shared Redis under a prefix of its own:
 * - `routeTestEnv(label, { redisUrl })` sets the environment config() reads. config() reads it once,
 *   on first use, so call this at the top of the test file, before any route is loaded. It sets
 *   TEST_DATABASE_URL, the Redis (REDIS_URL unless told otherwise) under a unique
 *   SLUICE_REDIS_PREFIX, a random SLUICE_ADMIN_TOKEN, no trusted proxy, and no first admin (a test
 *   file must not bootstrap one into the shared database). It answers the token, the prefix, the
 *   `auth` header carrying the token, and `close()`, which deletes exactly the prefix's keys on the
 *   shared Redis and closes the process's database client.
 * - `loadRoutes(...names)` imports route modules by their names in ROUTE_MODULES (after the
 *   environment is set), each as a map from HTTP method to handler.
 * - `adminCaller(auth)`: `(routes, method, path, params, body?, headers = auth)` calls one of those
 *   handlers for `/api/admin<path>` through callRoute.
 */
import { randomBytes } from "node:crypto";
import { callRoute, type RouteAnswer, type RouteHandler } from "./routeCall";
import { cleanupRedis, TEST_DATABASE_URL } from "./sluiceEnv";
import { REDIS_URL, uniquePrefix } from "./testRedis";

export type Routes = Record<string, RouteHandler>;

export interface RouteTestEnv {
  token: string;
  prefix: string;
  auth: { authorization: string };
  close(): Promise<void>;
}

export function routeTestEnv(label: string, { redisUrl = REDIS_URL }: { redisUrl?: string } = {}): RouteTestEnv {
  const token = `${label}-test-${randomBytes(16).toString("hex")}`;
  const prefix = uniquePrefix(label);
  process.env.DATABASE_URL = TEST_DATABASE_URL;
  process.env.REDIS_URL = redisUrl;
  process.env.SLUICE_REDIS_PREFIX = prefix;
  process.env.SLUICE_ADMIN_TOKEN = token;
  process.env.SLUICE_TRUST_PROXY = "0";
  // Route tests call handlers without a client address (all "unknown"), and the authorization
  // matrix sends hundreds of wrong tokens on purpose: no bearer-failure limit here
  // (lib/control/auth/bearerFailures.test.ts and lib/control/admin/authorize.test.ts test the limit).
  process.env.SLUICE_BEARER_FAILURES_PER_IP ??= "1000000000";
  delete process.env.SLUICE_ADMIN_EMAIL;
  delete process.env.SLUICE_ADMIN_PASSWORD;
  return {
    token,
    prefix,
    auth: { authorization: `Bearer ${token}` },
    async close() {
      await cleanupRedis(prefix);
      const db = await import("@/lib/db/client");
      await db.closeDb();
    },
  };
}

const ROUTE_MODULES = {
  tenants: () => import("@/app/api/admin/tenants/route"),
  tenant: () => import("@/app/api/admin/tenants/[tenantId]/route"),
  operators: () => import("@/app/api/admin/operators/route"),
  operator: () => import("@/app/api/admin/operators/[operatorId]/route"),
  tenantKeys: () => import("@/app/api/admin/tenants/[tenantId]/keys/route"),
  tenantRules: () => import("@/app/api/admin/tenants/[tenantId]/rules/route"),
  tenantUpstream: () => import("@/app/api/admin/tenants/[tenantId]/upstream/route"),
  tenantIdentity: () => import("@/app/api/admin/tenants/[tenantId]/identity/route"),
  tenantAccess: () => import("@/app/api/admin/tenants/[tenantId]/access/route"),
  tenantQuota: () => import("@/app/api/admin/tenants/[tenantId]/quota/route"),
  tenantTiers: () => import("@/app/api/admin/tenants/[tenantId]/tiers/route"),
  tierRules: () => import("@/app/api/admin/tenants/[tenantId]/tiers/[tier]/rules/route"),
  simulate: () => import("@/app/api/admin/tenants/[tenantId]/simulate/route"),
  key: () => import("@/app/api/admin/keys/[keyId]/route"),
  keyRules: () => import("@/app/api/admin/keys/[keyId]/rules/route"),
  keyQuota: () => import("@/app/api/admin/keys/[keyId]/quota/route"),
  keyDecisions: () => import("@/app/api/admin/keys/[keyId]/decisions/route"),
  audit: () => import("@/app/api/admin/audit/route"),
  tokens: () => import("@/app/api/admin/tokens/route"),
  token: () => import("@/app/api/admin/tokens/[tokenId]/route"),
  auditRevert: () => import("@/app/api/admin/audit/[auditId]/revert/route"),
  traffic: () => import("@/app/api/admin/monitoring/traffic/route"),
  refusalRate: () => import("@/app/api/admin/monitoring/refusal-rate/route"),
  hotKeys: () => import("@/app/api/admin/monitoring/hot-keys/route"),
  hotDescriptors: () => import("@/app/api/admin/monitoring/hot-descriptors/route"),
  nearLimit: () => import("@/app/api/admin/monitoring/near-limit/route"),
  limitedNow: () => import("@/app/api/admin/monitoring/limited/route"),
  upstreamHealth: () => import("@/app/api/admin/monitoring/upstream/route"),
  // /api/v1 is the data plane's (lib/dataplane), not a Next route: served by the same handler in this process.
  echo: () => import("./dataPlaneRoute"),
  login: () => import("@/app/api/auth/login/route"),
  logout: () => import("@/app/api/auth/logout/route"),
  me: () => import("@/app/api/auth/me/route"),
} satisfies Record<string, () => Promise<unknown>>;

export type RouteName = keyof typeof ROUTE_MODULES;

export async function loadRoutes<N extends RouteName>(...names: N[]): Promise<Record<N, Routes>> {
  const routes: Partial<Record<N, Routes>> = {};
  for (const name of names) routes[name] = (await ROUTE_MODULES[name]()) as unknown as Routes;
  return routes as Record<N, Routes>;
}

/** Calls of admin route handlers (`/api/admin<path>`), with `auth`'s headers unless others are given. */
export function adminCaller(auth: Record<string, string>) {
  return (
    routes: Routes,
    method: string,
    path: string,
    params: Record<string, string>,
    body?: unknown,
    headers: Record<string, string> = auth,
  ): Promise<RouteAnswer> => callRoute(routes[method], { method, path: `/api/admin${path}`, params, body, headers });
}

/** An event of GET /api/admin/audit, as far as the route tests read it. */
export interface AuditEvent {
  id: string;
  action: string;
  before: unknown;
  after: unknown;
  revertOf: string | null;
}

/** A tenant's audit list (newest first) and the revert of one event, through the routes. */
export function auditCalls(call: ReturnType<typeof adminCaller>, audit: Routes, auditRevert: Routes) {
  return {
    auditOf: async (tenantId: string): Promise<AuditEvent[]> =>
      (await call(audit, "GET", `/audit?tenantId=${tenantId}`, {})).body as AuditEvent[],
    revert: (auditId: string) => call(auditRevert, "POST", `/audit/${auditId}/revert`, { auditId }),
  };
}
