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
  tenantPolicy: () => import("@/app/api/admin/tenants/[tenantId]/policy/route"),
  tenantQuota: () => import("@/app/api/admin/tenants/[tenantId]/quota/route"),
  tenantUsage: () => import("@/app/api/admin/tenants/[tenantId]/usage/route"),
  tenantTiers: () => import("@/app/api/admin/tenants/[tenantId]/tiers/route"),
  tenantGrants: () => import("@/app/api/admin/tenants/[tenantId]/grants/route"),
  tenantGrant: () => import("@/app/api/admin/tenants/[tenantId]/grants/[grantId]/route"),
  tierRules: () => import("@/app/api/admin/tenants/[tenantId]/tiers/[tier]/rules/route"),
  simulate: () => import("@/app/api/admin/tenants/[tenantId]/simulate/route"),
  key: () => import("@/app/api/admin/keys/[keyId]/route"),
  keyRules: () => import("@/app/api/admin/keys/[keyId]/rules/route"),
  keyQuota: () => import("@/app/api/admin/keys/[keyId]/quota/route"),
  keyDecisions: () => import("@/app/api/admin/keys/[keyId]/decisions/route"),
  keyGrants: () => import("@/app/api/admin/keys/[keyId]/grants/route"),
  keyGrant: () => import("@/app/api/admin/keys/[keyId]/grants/[grantId]/route"),
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

/** The OpenAPI path of each route module (test/support/answerConformance.ts checks answers against it). */
export const ROUTE_PATHS: Record<RouteName, string> = {
  tenants: "/api/admin/tenants",
  operators: "/api/admin/operators",
  operator: "/api/admin/operators/{operatorId}",
  tenant: "/api/admin/tenants/{tenantId}",
  tenantKeys: "/api/admin/tenants/{tenantId}/keys",
  tenantRules: "/api/admin/tenants/{tenantId}/rules",
  tenantUpstream: "/api/admin/tenants/{tenantId}/upstream",
  tenantIdentity: "/api/admin/tenants/{tenantId}/identity",
  tenantAccess: "/api/admin/tenants/{tenantId}/access",
  tenantPolicy: "/api/admin/tenants/{tenantId}/policy",
  tenantQuota: "/api/admin/tenants/{tenantId}/quota",
  tenantUsage: "/api/admin/tenants/{tenantId}/usage",
  tenantTiers: "/api/admin/tenants/{tenantId}/tiers",
  tenantGrants: "/api/admin/tenants/{tenantId}/grants",
  tenantGrant: "/api/admin/tenants/{tenantId}/grants/{grantId}",
  tierRules: "/api/admin/tenants/{tenantId}/tiers/{tier}/rules",
  simulate: "/api/admin/tenants/{tenantId}/simulate",
  key: "/api/admin/keys/{keyId}",
  keyRules: "/api/admin/keys/{keyId}/rules",
  keyQuota: "/api/admin/keys/{keyId}/quota",
  keyDecisions: "/api/admin/keys/{keyId}/decisions",
  keyGrants: "/api/admin/keys/{keyId}/grants",
  keyGrant: "/api/admin/keys/{keyId}/grants/{grantId}",
  audit: "/api/admin/audit",
  tokens: "/api/admin/tokens",
  token: "/api/admin/tokens/{tokenId}",
  auditRevert: "/api/admin/audit/{auditId}/revert",
  traffic: "/api/admin/monitoring/traffic",
  refusalRate: "/api/admin/monitoring/refusal-rate",
  hotKeys: "/api/admin/monitoring/hot-keys",
  hotDescriptors: "/api/admin/monitoring/hot-descriptors",
  nearLimit: "/api/admin/monitoring/near-limit",
  limitedNow: "/api/admin/monitoring/limited",
  upstreamHealth: "/api/admin/monitoring/upstream",
  echo: "/api/v1/echo",
  login: "/api/auth/login",
  logout: "/api/auth/logout",
  me: "/api/auth/me",
};

/** `template` with its `{param}`s filled in from `params` (a missing one stays as is). */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : encodeURIComponent(value);
  });
}

const routePathOf = new WeakMap<Routes, string>();

/** The OpenAPI path of a route module loaded by loadRoutes (undefined for another object). */
export const routePath = (routes: Routes): string | undefined => routePathOf.get(routes);

export async function loadRoutes<N extends RouteName>(...names: N[]): Promise<Record<N, Routes>> {
  const routes: Partial<Record<N, Routes>> = {};
  for (const name of names) {
    routes[name] = (await ROUTE_MODULES[name]()) as unknown as Routes;
    routePathOf.set(routes[name], ROUTE_PATHS[name]);
  }
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
