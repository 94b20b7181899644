/**
 * Every route file under app/api and every HTTP method it exports, with what it is: an admin
 * route method that reads or changes state, a public one, a session endpoint, a 405, or a route
 * outside the matrix (API-key routes under /api/v1, fuzzed in apiFuzz.int.test.ts). For each
 * method that does something, `ok` prepares a call that must succeed for a caller allowed to make
 * it, and names the status it answers.
 *
 * routeInventory.ts walks app/api at test time and fails on any file or exported method this
 * table does not list, so a new route cannot escape the authorization matrix or the fuzzing.
 * The admin tenant routes' rows are in tenantRouteTable.ts; the row vocabulary in routeSpecs.ts.
 */
import { BASELINE_KEY_RULES, BASELINE_RULES, PASSWORD, uniqueLabel } from "./securityFixtures";
import { adminRead, key, NOT_ALLOWED, read, write, type RouteSpec } from "./routeSpecs";
import { TENANT_ROUTES } from "./tenantRouteTable";
import { getDb } from "@/lib/db/client";

/** Keyed by the route file's path under app/, without `/route.ts`. */
export const ROUTE_TABLE: Record<string, RouteSpec> = {
  // The admin tenant routes, tenants first (tenantRouteTable.ts).
  ...TENANT_ROUTES,
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
    methods: {
      DELETE: write((fx) => ({ params: key(fx), status: 204 })),
      GET: NOT_ALLOWED,
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/keys/[keyId]/grants": {
    methods: {
      GET: read((fx) => ({ params: key(fx), status: 200 })),
      // One unit on the fixture key's per-key rule until its window ends: the other checks keep working.
      POST: write((fx) => ({ params: key(fx), body: { units: 1, rule: "per-key" }, status: 201 })),
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/keys/[keyId]/grants/[grantId]": {
    methods: {
      // Each allowed caller ends a grant of its own.
      DELETE: write(async (fx) => {
        const grant = await getDb().keyGrant.create({
          data: {
            tenantId: fx.tenantId,
            keyId: fx.keyId,
            units: 1,
            until: new Date(Date.now() + 60_000),
            createdBy: "fixture",
          },
        });
        return { params: { keyId: fx.keyId, grantId: grant.id }, status: 204 };
      }),
      GET: NOT_ALLOWED,
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/rules/[rule]/counters": {
    methods: {
      // A tenant of its own: the shared one's rules are replaced by other calls (a revert empties them).
      DELETE: write(async (fx) => ({
        params: { tenantId: (await fx.sec.newTenant()).id, rule: BASELINE_RULES[1].name },
        query: "?identifier=fuzz-caller",
        status: 204,
      })),
      GET: NOT_ALLOWED,
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/rules/[rule]/overrides": {
    methods: {
      // A tenant of its own, as for the counters above: the shared one's rules may be emptied by a revert.
      GET: read(async (fx) => ({
        params: { tenantId: (await fx.sec.newTenant()).id, rule: BASELINE_RULES[1].name },
        status: 200,
      })),
      PUT: write(async (fx) => ({
        params: { tenantId: (await fx.sec.newTenant()).id, rule: BASELINE_RULES[1].name },
        body: [{ identifier: "enterprise:*", limit: 5000 }],
        status: 200,
      })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/keys/[keyId]/quota": {
    methods: {
      GET: read((fx) => ({ params: key(fx), query: "?ip=192.0.2.1&identifier=x", status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/keys/[keyId]/decisions": {
    methods: {
      GET: read((fx) => ({ params: key(fx), query: "?limit=5", status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/audit": {
    methods: {
      GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&limit=5`, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/audit/[auditId]/revert": {
    methods: {
      POST: write((fx) => ({ params: { auditId: fx.auditId }, status: 200 })),
      GET: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/traffic": {
    methods: {
      GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&range=1h`, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/refusal-rate": {
    methods: {
      GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}`, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/hot-keys": {
    methods: {
      GET: read(() => ({ query: "?range=24h&limit=3", status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/hot-descriptors": {
    methods: {
      GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&range=24h&limit=3`, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/caller": {
    methods: {
      GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&caller=${fx.keyId}&range=1h`, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/upstream": {
    methods: {
      GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}`, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tokens": {
    methods: {
      GET: adminRead(() => ({ status: 200 })),
      // Limited to the fixture tenant; tracked too, as the fuzzer may send a body without it.
      POST: write((fx) => ({
        body: { name: uniqueLabel("tok"), role: "viewer", tenantId: fx.tenantId },
        status: 201,
        // A fuzzed body may drop the tenant: removed by id then.
        created: (b) => fx.sec.trackToken(b.id),
      })),
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tokens/[tokenId]": {
    methods: {
      // Each allowed caller revokes a token of its own, made straight in the store (the fixture tenant's).
      DELETE: write(async (fx) => {
        const db = (await import("@/lib/db/client")).getDb();
        const { mintToken } = await import("@/lib/control/tokens/tokenSecret");
        const row = await db.adminToken.create({
          data: {
            name: uniqueLabel("tok"),
            role: "viewer",
            tenantId: fx.tenantId,
            secretHash: mintToken().secretHash,
            createdBy: "test",
          },
        });
        return { params: { tokenId: row.id }, status: 204 };
      }),
      GET: NOT_ALLOWED,
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/limited": {
    methods: {
      GET: read((fx) => ({ query: `?tenantId=${fx.tenantId}&limit=5`, status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/monitoring/near-limit": {
    methods: {
      GET: read(() => ({ status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/operators": {
    methods: {
      GET: read(() => ({ status: 200 })),
      POST: write((fx) => ({
        body: { email: `${uniqueLabel("op")}@example.com`, password: PASSWORD, role: "viewer" },
        status: 201,
        created: (b) => fx.sec.trackOperator(b.id),
      })),
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
    methods: {
      POST: { kind: "login", ok: (fx) => ({ body: { email: fx.loginEmail, password: PASSWORD }, status: 200 }) },
      GET: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  // Single sign-on: a redirect to the IdP or back to /login?sso_error= (SSO is off in these tests: sso_off).
  "api/auth/sso/start": {
    methods: {
      GET: { kind: "public", ok: () => ({ status: 303 }) },
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/auth/sso/callback": {
    methods: {
      GET: { kind: "public", ok: () => ({ query: "?code=x&state=y", status: 303 }) },
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/auth/logout": {
    methods: {
      POST: { kind: "logout", ok: () => ({ status: 204 }) },
      GET: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/auth/me": {
    methods: {
      GET: { kind: "me", ok: () => ({ status: 200 }) },
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/health": {
    methods: {
      GET: { kind: "public", ok: () => ({ status: 200 }) },
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/metrics": {
    methods: {
      GET: { kind: "public", ok: () => ({ status: 200 }) },
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/openapi.json": {
    methods: {
      GET: { kind: "public", ok: () => ({ status: 200 }) },
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  // /api/v1 is not a Next route: the data plane (lib/dataplane) serves it; fuzzed in apiFuzz.int.test.ts.
  "api/[[...path]]": {
    outside:
      "any unknown path under /api: a 404 problem for every method, no state (test/http/httpSemantics.int.test.ts)",
  },
};
