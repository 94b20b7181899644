/**
 * Every route file under app/api and every HTTP method it exports, with what it is: an admin
 * route method that reads or changes state, a public one, a session endpoint, a 405, or a route
 * outside the matrix (API-key routes under /api/v1, fuzzed in apiFuzz.int.test.ts). For each
 * method that does something, `ok` prepares a call that must succeed for a caller allowed to make
 * it, and names the status it answers.
 *
 * routeInventory.ts walks app/api at test time and fails on any file or exported method this
 * table does not list, so a new route cannot escape the authorization matrix or the fuzzing.
 */
import { BASELINE_KEY_RULES, BASELINE_RULES, PASSWORD, uniqueLabel, type Fixture } from "./securityFixtures";

export interface PreparedCall {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  /** The status an allowed caller gets. */
  status: number;
  /** Called with the body of a successful answer (to register what it created for cleanup). */
  created?: (body: { id: string }) => void;
}

export type MethodSpec =
  /** Admin API: any signed-in operator or the admin token may read (a POST that reads still gets the CSRF check). */
  | { kind: "read"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  /** Admin API: only an admin (session from this origin, or the admin token) may change state. */
  | { kind: "write"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  /** Open to anyone by the contract (health, metrics). */
  | { kind: "public"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  /** The session endpoints, each with its own rules (authorizationMatrix.int.test.ts). */
  | { kind: "login" | "logout" | "me"; ok: (fx: Fixture) => Promise<PreparedCall> | PreparedCall }
  | { kind: "not_allowed" };

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type RouteSpec = { outside: string } | { methods: Partial<Record<HttpMethod, MethodSpec>> };

const NOT_ALLOWED: MethodSpec = { kind: "not_allowed" };
const read = (ok: (fx: Fixture) => PreparedCall | Promise<PreparedCall>): MethodSpec => ({ kind: "read", ok });
const write = (ok: (fx: Fixture) => PreparedCall | Promise<PreparedCall>): MethodSpec => ({ kind: "write", ok });
const tenant = (fx: Fixture) => ({ tenantId: fx.tenantId });
const key = (fx: Fixture) => ({ keyId: fx.keyId });

/** Keyed by the route file's path under app/, without `/route.ts`. */
export const ROUTE_TABLE: Record<string, RouteSpec> = {
  "api/admin/tenants": {
    methods: {
      GET: read(() => ({ status: 200 })),
      POST: write((fx) => ({ body: { name: uniqueLabel("t") }, status: 201, created: (b) => fx.sec.trackTenant(b.id) })),
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]": {
    methods: { GET: read((fx) => ({ params: tenant(fx), status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/tenants/[tenantId]/keys": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      POST: write((fx) => ({ params: tenant(fx), body: { name: uniqueLabel("k") }, status: 201 })),
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/rules": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      PUT: write((fx) => ({ params: tenant(fx), body: BASELINE_RULES, status: 200 })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/quota": {
    methods: { GET: read((fx) => ({ params: tenant(fx), status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/tenants/[tenantId]/simulate": {
    methods: {
      // A simulation changes nothing, so a viewer may run it; being a POST, a session's needs this origin.
      POST: read((fx) => ({ params: tenant(fx), body: { rules: BASELINE_RULES, fromMs: Date.now() - 60_000, toMs: Date.now() }, status: 200 })),
      GET: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/keys/[keyId]": {
    methods: {
      GET: read((fx) => ({ params: key(fx), status: 200 })),
      // Each allowed caller revokes a key of its own.
      DELETE: write(async (fx) => ({ params: { keyId: (await fx.sec.newKey(fx.tenantId)).id }, status: 204 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/keys/[keyId]/rules": {
    methods: {
      GET: read((fx) => ({ params: key(fx), status: 200 })),
      PUT: write((fx) => ({ params: key(fx), body: BASELINE_KEY_RULES, status: 200 })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/keys/[keyId]/quota": {
    methods: { GET: read((fx) => ({ params: key(fx), query: "?ip=192.0.2.1&identifier=x", status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/keys/[keyId]/decisions": {
    methods: { GET: read((fx) => ({ params: key(fx), query: "?limit=5", status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/audit": {
    methods: { GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&limit=5`, status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/audit/[auditId]/revert": {
    methods: { POST: write((fx) => ({ params: { auditId: fx.auditId }, status: 200 })), GET: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/monitoring/traffic": {
    methods: { GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&range=1h`, status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/monitoring/refusal-rate": {
    methods: { GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}`, status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/monitoring/hot-keys": {
    methods: { GET: read(() => ({ query: "?range=24h&limit=3", status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/monitoring/near-limit": {
    methods: { GET: read(() => ({ status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/admin/operators": {
    methods: {
      GET: read(() => ({ status: 200 })),
      POST: write((fx) => ({ body: { email: `${uniqueLabel("op")}@example.com`, password: PASSWORD, role: "viewer" }, status: 201, created: (b) => fx.sec.trackOperator(b.id) })),
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/operators/[operatorId]": {
    methods: {
      GET: read((fx) => ({ params: { operatorId: fx.targetOperatorId }, status: 200 })),
      PATCH: write((fx) => ({ params: { operatorId: fx.targetOperatorId }, body: { role: "viewer" }, status: 200 })),
      // Each allowed caller deletes an operator of its own.
      DELETE: write(async (fx) => ({ params: { operatorId: (await fx.sec.newOperator("viewer")).id }, status: 204 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
    },
  },
  "api/auth/login": {
    methods: { POST: { kind: "login", ok: (fx) => ({ body: { email: fx.loginEmail, password: PASSWORD }, status: 200 }) }, GET: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/auth/logout": {
    methods: { POST: { kind: "logout", ok: () => ({ status: 204 }) }, GET: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/auth/me": {
    methods: { GET: { kind: "me", ok: () => ({ status: 200 }) }, POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/health": {
    methods: { GET: { kind: "public", ok: () => ({ status: 200 }) }, POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/metrics": {
    methods: { GET: { kind: "public", ok: () => ({ status: 200 }) }, POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  "api/v1/[...path]": { outside: "API-key route: credentials, methods and paths are fuzzed in apiFuzz.int.test.ts" },
  "api/v1/check": { outside: "API-key route: credentials and bodies are fuzzed in apiFuzz.int.test.ts" },
  "api/v1/echo/[[...rest]]": { outside: "API-key route: credentials, methods and paths are fuzzed in apiFuzz.int.test.ts" },
};
