/**
 * The webhook URL is a capability URL (whoever has it can post to the receiver): through the route
 * handlers (no server), against the test database and the shared Redis under this file's prefix,
 * a viewer reads only its hint (origin and last 4 characters), an admin the whole URL, and the
 * audit log keeps only the hint, also showing events stored before as hints. Cleans up its tenant,
 * operator and Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { adminCaller, loadRoutes, routeTestEnv, type AuditEvent } from "@/test/support/routeTestEnv";
import { viewerSession } from "@/test/support/viewerSession";

const { auth, close } = routeTestEnv("hookurl");
const { tenants, audit, login } = await loadRoutes("tenants", "audit", "login");
const alerts = (await import("@/app/api/admin/tenants/[tenantId]/alerts/route")) as unknown as Parameters<
  ReturnType<typeof adminCaller>
>[0];
const db = await import("@/lib/db/client");
const created: string[] = [];
const operatorIds: string[] = [];

const URL_ = "https://hooks.slack.com/services/T0001/B0002/CapabilitySecretWXYZ";
const HINT = "https://hooks.slack.com/…WXYZ";

const call = adminCaller(auth);
let tenantId: string;
let viewer: Record<string, string>;

beforeAll(async () => {
  const res = await call(tenants, "POST", "/tenants", {}, { name: `hookurl-${randomBytes(4).toString("hex")}` });
  expect(res.status).toBe(201);
  created.push((tenantId = res.body.id));
  viewer = await viewerSession(login, operatorIds, "hookurl");
  const put = await call(
    alerts,
    "PUT",
    `/tenants/${tenantId}/alerts`,
    { tenantId },
    {
      webhookUrl: URL_,
      clientLimit: { hits: 5, windowMinutes: 5 },
    },
  );
  expect(put.status).toBe(200);
});

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  if (operatorIds.length > 0) await db.getDb().operator.deleteMany({ where: { id: { in: operatorIds } } });
  await close();
});

it("a viewer reads the webhook URL's origin and hint, never the URL; an admin reads the URL", async () => {
  const asViewer = await call(alerts, "GET", `/tenants/${tenantId}/alerts`, { tenantId }, undefined, viewer);
  expect(asViewer.status).toBe(200);
  expect(asViewer.body.settings.webhookUrlHint).toBe(HINT);
  expect(asViewer.body.settings.webhookUrl).toBeUndefined();
  expect(JSON.stringify(asViewer.body)).not.toContain("CapabilitySecret");

  const asAdmin = await call(alerts, "GET", `/tenants/${tenantId}/alerts`, { tenantId });
  expect(asAdmin.status).toBe(200);
  expect(asAdmin.body.settings).toMatchObject({ webhookUrl: URL_, webhookUrlHint: HINT });
});

it("the audit log keeps only the hint, and shows an event stored with the whole URL as the hint", async () => {
  // As an event written before this fix was stored.
  await db.getDb().auditEvent.create({
    data: {
      actor: "token",
      action: "alerts.delete",
      target: `tenant:${tenantId}`,
      tenantId,
      before: { webhookUrl: URL_, refusalRate: null, clientLimit: null },
    },
  });
  const stored = await db.getDb().auditEvent.findMany({ where: { tenantId, action: "alerts.replace" } });
  expect(stored).toHaveLength(1);
  expect(JSON.stringify(stored[0]!.after)).not.toContain("CapabilitySecret");

  const events = (await call(audit, "GET", `/audit?tenantId=${tenantId}`, {}, undefined, viewer)).body as AuditEvent[];
  const alertEvents = events.filter((e) => e.action.startsWith("alerts."));
  expect(alertEvents).toHaveLength(2);
  expect(JSON.stringify(alertEvents)).not.toContain("CapabilitySecret");
  expect(alertEvents.map((e) => (e.after ?? e.before) as { webhookUrl: string })).toEqual([
    expect.objectContaining({ webhookUrl: HINT }),
    expect.objectContaining({ webhookUrl: HINT }),
  ]);
});
