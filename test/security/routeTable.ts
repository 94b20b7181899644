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
const UPSTREAM = { url: "http://127.0.0.1:9/api", timeoutMs: 1_000 };
/** Gives the fixture tenant an upstream (straight in the store), so GET and DELETE have one to act on. */
async function withUpstream(fx: Fixture) {
  const db = (await import("@/lib/db/client")).getDb();
  await db.upstream.upsert({ where: { tenantId: fx.tenantId }, create: { tenantId: fx.tenantId, ...UPSTREAM }, update: {} });
  return tenant(fx);
}

const ALERTS = { webhookUrl: "http://127.0.0.1:9/hook", clientLimit: { hits: 1_000, windowMinutes: 60 } };
/** Gives the fixture tenant alert settings (straight in the store), so DELETE has them to act on. */
async function withAlerts(fx: Fixture) {
  const db = (await import("@/lib/db/client")).getDb();
  await db.alertSettings.upsert({ where: { tenantId: fx.tenantId }, create: { tenantId: fx.tenantId, webhookUrl: ALERTS.webhookUrl, secret: "whsec_fixture", conditions: { refusalRate: null, clientLimit: ALERTS.clientLimit } }, update: {} });
  return tenant(fx);
}

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
  "api/admin/tenants/[tenantId]/upstream": {
    methods: {
      GET: read(async (fx) => ({ params: await withUpstream(fx), status: 200 })),
      PUT: write((fx) => ({ params: tenant(fx), body: UPSTREAM, status: 200 })),
      DELETE: write(async (fx) => ({ params: await withUpstream(fx), status: 204 })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/access": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      // Documentation addresses (RFC 5737): no test client comes from them.
      PUT: write((fx) => ({ params: tenant(fx), body: { allow: ["192.0.2.0/24"], deny: ["198.51.100.7"] }, status: 200 })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/alerts": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      PUT: write((fx) => ({ params: tenant(fx), body: ALERTS, status: 200 })),
      DELETE: write(async (fx) => ({ params: await withAlerts(fx), status: 204 })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
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
      // An expiry far ahead: the shared fixture key keeps working for the other checks.
      PATCH: write((fx) => ({ params: key(fx), body: { expiresAt: "2999-01-01T00:00:00Z" }, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
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
  "api/admin/keys/[keyId]/counters": {
    methods: { DELETE: write((fx) => ({ params: key(fx), status: 204 })), GET: NOT_ALLOWED, POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED },
  },
  "api/admin/tenants/[tenantId]/rules/[rule]/counters": {
    methods: {
      // A tenant of its own: the shared one's rules are replaced by other calls (a revert empties them).
      DELETE: write(async (fx) => ({ params: { tenantId: (await fx.sec.newTenant()).id, rule: BASELINE_RULES[1].name }, query: "?identifier=fuzz-caller", status: 204 })),
      GET: NOT_ALLOWED,
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/rules/[rule]/overrides": {
    methods: {
      // A tenant of its own, as for the counters above: the shared one's rules may be emptied by a revert.
      GET: read(async (fx) => ({ params: { tenantId: (await fx.sec.newTenant()).id, rule: BASELINE_RULES[1].name }, status: 200 })),
      PUT: write(async (fx) => ({ params: { tenantId: (await fx.sec.newTenant()).id, rule: BASELINE_RULES[1].name }, body: [{ identifier: "enterprise:*", limit: 5000 }], status: 200 })),
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
  "api/admin/monitoring/limited": {
    methods: { GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&limit=5`, status: 200 })), POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
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
  "api/openapi.json": {
    methods: { GET: { kind: "public", ok: () => ({ status: 200 }) }, POST: NOT_ALLOWED, PUT: NOT_ALLOWED, PATCH: NOT_ALLOWED, DELETE: NOT_ALLOWED },
  },
  // /api/v1 is not a Next route: the data plane (lib/dataplane) serves it; fuzzed in apiFuzz.int.test.ts.
  "api/[[...path]]": { outside: "any unknown path under /api: a 404 problem for every method, no state (test/http/httpSemantics.int.test.ts)" },
};
