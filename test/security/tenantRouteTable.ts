/**
 * The route table's rows for the admin tenant routes (app/api/admin/tenants/…: the tenant, its keys,
 * rules, upstream, access lists, alerts, quota and simulator), first in ROUTE_TABLE (routeTable.ts)
 * and in this order. How to read a row: routeSpecs.ts.
 */
import { BASELINE_KEY_RULES, BASELINE_RULES, uniqueLabel, type Fixture } from "./securityFixtures";
import { NOT_ALLOWED, read, tenant, write, type RouteSpec } from "./routeSpecs";

const UPSTREAM = { url: "http://127.0.0.1:9/api", timeoutMs: 1_000 };
/** Gives the fixture tenant an upstream (straight in the store), so GET and DELETE have one to act on. */
async function withUpstream(fx: Fixture) {
  const db = (await import("@/lib/db/client")).getDb();
  await db.upstream.upsert({
    where: { tenantId: fx.tenantId },
    create: { tenantId: fx.tenantId, ...UPSTREAM },
    update: {},
  });
  return tenant(fx);
}

const ALERTS = { webhookUrl: "http://127.0.0.1:9/hook", clientLimit: { hits: 1_000, windowMinutes: 60 } };
/** Gives the fixture tenant alert settings (straight in the store), so DELETE has them to act on. */
async function withAlerts(fx: Fixture) {
  const db = (await import("@/lib/db/client")).getDb();
  await db.alertSettings.upsert({
    where: { tenantId: fx.tenantId },
    create: {
      tenantId: fx.tenantId,
      webhookUrl: ALERTS.webhookUrl,
      secret: "whsec_fixture",
      conditions: { refusalRate: null, clientLimit: ALERTS.clientLimit },
    },
    update: {},
  });
  return tenant(fx);
}

export const TENANT_ROUTES: Record<string, RouteSpec> = {
  "api/admin/tenants": {
    methods: {
      GET: read(() => ({ status: 200 })),
      POST: write((fx) => ({
        body: { name: uniqueLabel("t") },
        status: 201,
        created: (b) => fx.sec.trackTenant(b.id),
      })),
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
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
  "api/admin/tenants/[tenantId]/policy": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      // A tenant of its own: the document replaces every part of the policy (the upstream too).
      PUT: write(async (fx) => ({
        params: { tenantId: (await fx.sec.newTenant()).id },
        body: {
          rules: BASELINE_RULES,
          keys: {},
          tiers: {},
          overrides: {},
          access: { allow: [], deny: [] },
          identity: {},
          upstream: null,
          alerts: null,
        },
        status: 200,
      })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/upstream/test": {
    methods: {
      // Port 9 refuses: the test answers 200 with what happened (ok: false), and changes nothing.
      POST: write(async (fx) => ({ params: await withUpstream(fx), status: 200 })),
      GET: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/tiers": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/tiers/[tier]/rules": {
    methods: {
      GET: read((fx) => ({ params: { ...tenant(fx), tier: "pro" }, status: 200 })),
      PUT: write((fx) => ({ params: { ...tenant(fx), tier: "pro" }, body: BASELINE_KEY_RULES, status: 200 })),
      // 204 also for a tier without rules.
      DELETE: write((fx) => ({ params: { ...tenant(fx), tier: "gone" }, status: 204 })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/grants": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      // A tenant of its own (the shared one's rules are replaced by other calls): one unit for a JWT
      // subject on its per-key rule.
      POST: write(async (fx) => ({
        params: { tenantId: (await fx.sec.newTenant()).id },
        body: { units: 1, rule: "per-key", subject: "fixture" },
        status: 201,
      })),
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/grants/[grantId]": {
    methods: {
      // Each allowed caller ends a grant of its own.
      DELETE: write(async (fx) => {
        const db = (await import("@/lib/db/client")).getDb();
        const grant = await db.callerGrant.create({
          data: {
            tenantId: fx.tenantId,
            tier: "fixture",
            units: 1,
            until: new Date(Date.now() + 60_000),
            createdBy: "fixture",
          },
        });
        return { params: { tenantId: fx.tenantId, grantId: grant.id }, status: 204 };
      }),
      GET: NOT_ALLOWED,
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/usage": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/identity": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      // No host: every caller PUTs the same tenant's settings, and a host would tie it to one name.
      PUT: write((fx) => ({ params: tenant(fx), body: { anonymous: true }, status: 200 })),
      POST: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/access": {
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      // Documentation addresses (RFC 5737): no test client comes from them.
      PUT: write((fx) => ({
        params: tenant(fx),
        body: { allow: ["192.0.2.0/24"], deny: ["198.51.100.7"] },
        status: 200,
      })),
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
    methods: {
      GET: read((fx) => ({ params: tenant(fx), status: 200 })),
      POST: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
  "api/admin/tenants/[tenantId]/simulate": {
    methods: {
      // A simulation changes nothing, so a viewer may run it; being a POST, a session's needs this origin.
      POST: read((fx) => ({
        params: tenant(fx),
        body: { rules: BASELINE_RULES, fromMs: Date.now() - 60_000, toMs: Date.now() },
        status: 200,
      })),
      GET: NOT_ALLOWED,
      PUT: NOT_ALLOWED,
      PATCH: NOT_ALLOWED,
      DELETE: NOT_ALLOWED,
    },
  },
};
