/**
 * In-product alerts end to end on two built servers sharing one Redis and one database
 * (`npm run build` first): a real refusal spike through /api/v1 makes a local receiver get exactly
 * one signed alert whose signature verifies, though both instances evaluate it; a failing receiver
 * is retried with the same alert id until it answers 200; the deliveries are listed by the admin
 * API and counted in the Prometheus metrics. The receivers listen on 127.0.0.1, which the servers
 * may reach only through SLUICE_ALERT_ALLOWED_ADDRESSES.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertPayload } from "@/lib/control/alerts/alertEvaluator";
import type { AlertDelivery, StoredAlertSettings } from "@/lib/control/alerts/alertAnswers";
import { verifyWebhookSignature } from "@/lib/control/alerts/webhookSignature";
import { adminClient, apiCall, deleteTenants, type AdminClient } from "@/test/support/adminClient";
import {
  awayFromWindowEdge,
  cleanupRedis,
  sleep,
  sluiceEnv,
  TEST_DATABASE_URL,
  waitUntil,
} from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const MINUTE = 60_000;
const INTERVAL_MS = 300;
const env = sluiceEnv("alerts", {
  SLUICE_REDIS_TIMEOUT_MS: "2000",
  SLUICE_ALERT_INTERVAL_MS: String(INTERVAL_MS),
  SLUICE_ALERT_ALLOWED_ADDRESSES: "127.0.0.1",
  SLUICE_ALERT_RETRY_BASE_MS: "100",
  SLUICE_ALERT_ATTEMPTS: "4",
});

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  atMs: number;
}

/** A webhook receiver on 127.0.0.1 answering the scripted statuses in turn (then 200). */
async function receiver(
  statuses: number[] = [],
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), atMs: Date.now() });
      res.writeHead(statuses[received.length - 1] ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let a: SluiceServer;
let b: SluiceServer;
let admin: AdminClient;
const tenants: string[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([startSluice({ env: env.env }), startSluice({ env: env.env })]);
  admin = adminClient(a.url, env.adminToken);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await deleteTenants(TEST_DATABASE_URL, tenants);
  await cleanupRedis(env.prefix);
});

/** A tenant with one key limited to `limit` echoes a minute, and its alerts set to `alerts`; returns the signing secret. */
async function fixture(
  limit: number,
  alerts: Record<string, unknown>,
): Promise<{ tenantId: string; key: string; secret: string }> {
  const tenant = await admin.createTenant();
  tenants.push(tenant.id);
  await admin.putTenantRules(tenant.id, [
    { name: "echo", scope: "key", algorithm: "fixed_window", limit, windowMs: MINUTE },
  ]);
  const key = await admin.createKey(tenant.id);
  const saved = await admin.request("PUT", `/api/admin/tenants/${tenant.id}/alerts`, alerts);
  expect(saved.status).toBe(200);
  const body = saved.body as { settings: StoredAlertSettings; secret?: string };
  expect(body.secret).toMatch(/^whsec_/);
  expect(body.settings.secretHint).toBe(`whsec_…${body.secret!.slice(-4)}`);
  return { tenantId: tenant.id, key: key.key, secret: body.secret! };
}

async function deliveries(server: SluiceServer, tenantId: string): Promise<AlertDelivery[]> {
  const got = await adminClient(server.url, env.adminToken).request("GET", `/api/admin/tenants/${tenantId}/alerts`);
  expect(got.status).toBe(200);
  return (got.body as { deliveries: AlertDelivery[] }).deliveries;
}

async function metric(name: string, labels: string): Promise<number> {
  let sum = 0;
  for (const server of [a, b]) {
    const text = await (await fetch(`${server.url}/api/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
    sum += line ? Number(line.split(" ").pop()) : 0;
  }
  return sum;
}

describe("alert settings", () => {
  it("422 on invalid input; the secret is shown by the first PUT only, kept, rotated on request; audited without it", async () => {
    const tenant = await admin.createTenant();
    tenants.push(tenant.id);
    const path = `/api/admin/tenants/${tenant.id}/alerts`;
    const invalid = await admin.request("PUT", path, {
      webhookUrl: "file:///etc/passwd",
      refusalRate: { thresholdPct: 0, minutes: 5 },
    });
    expect(invalid.status).toBe(422);
    expect((invalid.body as { errors: Record<string, string[]> }).errors).toEqual({
      webhookUrl: ["webhookUrl must use http or https"],
      "refusalRate.thresholdPct": ["thresholdPct must be above 0"],
    });
    expect((await admin.request("GET", path)).body).toEqual({ settings: null, deliveries: [] });

    const body = { webhookUrl: "https://hooks.example.com/a", clientLimit: { hits: 10, windowMinutes: 5 } };
    const first = (await admin.request("PUT", path, body)).body as { secret?: string; settings: StoredAlertSettings };
    const again = (await admin.request("PUT", path, { ...body, refusalRate: { thresholdPct: 25, minutes: 10 } }))
      .body as { secret?: string; settings: StoredAlertSettings };
    expect(again.secret).toBeUndefined();
    expect(again.settings).toMatchObject({
      secretHint: first.settings.secretHint,
      refusalRate: { thresholdPct: 25, minutes: 10, minRequests: 20 },
      clientLimit: { hits: 10, windowMinutes: 5 },
    });
    const rotated = (await admin.request("PUT", path, { ...body, rotateSecret: true })).body as { secret?: string };
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first.secret);
    const read = await admin.request("GET", path);
    expect(JSON.stringify(read.body)).not.toContain(rotated.secret);

    const audit = (await admin.request("GET", `/api/admin/audit?tenantId=${tenant.id}`)).body as {
      action: string;
      after: unknown;
    }[];
    expect(audit.slice(0, 3).map((e) => e.action)).toEqual(["alerts.replace", "alerts.replace", "alerts.replace"]);
    // The audit log keeps only the capability URL's hint.
    expect(audit[0]!.after).toMatchObject({ secretRotated: true, webhookUrl: "https://hooks.example.com/…" });
    expect(JSON.stringify(audit)).not.toContain(first.secret);
    expect(JSON.stringify(audit)).not.toContain(rotated.secret);

    expect((await admin.request("DELETE", path)).status).toBe(204);
    expect((await admin.request("DELETE", path)).status).toBe(404);
  });
});

describe("alert webhooks", () => {
  it("a refusal spike through /api/v1 on two instances: exactly one signed alert, listed as delivered", async () => {
    const hook = await receiver();
    try {
      // The spike and the waits after it stay inside one epoch minute: one condition window (the
      // next minute's window would alert again while the spike is in its trailing minute).
      await awayFromWindowEdge(MINUTE, 40_000);
      const { tenantId, key, secret } = await fixture(2, {
        webhookUrl: hook.url,
        refusalRate: { thresholdPct: 50, minutes: 1, minRequests: 10 },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++)
        statuses.push((await apiCall(i % 2 ? b.url : a.url, "/api/v1/echo", { key })).status);
      expect(statuses.filter((s) => s === 429)).toHaveLength(18);

      await waitUntil(async () => hook.received.length > 0, 15_000, "an alert");
      // Both instances keep evaluating the same spike for many more ticks: still one alert.
      await sleep(10 * INTERVAL_MS);
      expect(hook.received).toHaveLength(1);
      // Off from here, so the checks below cannot run into the next minute's window.
      expect((await admin.request("DELETE", `/api/admin/tenants/${tenantId}/alerts`)).status).toBe(204);

      const [alert] = hook.received;
      const signature = alert!.headers["sluice-signature"] as string;
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(secret, alert!.body, signature, alert!.atMs)).toBe(true);
      expect(verifyWebhookSignature("whsec_wrong", alert!.body, signature, alert!.atMs)).toBe(false);
      expect(alert!.headers["content-type"]).toBe("application/json");
      const payload = JSON.parse(alert!.body) as AlertPayload;
      expect(payload).toMatchObject({
        type: "refusal_rate",
        tenant: { id: tenantId },
        condition: { thresholdPct: 50, minutes: 1, minRequests: 10 },
      });
      expect(alert!.headers["sluice-alert-id"]).toBe(payload.id);
      expect((payload.observed as { refusedPct: number }).refusedPct).toBeGreaterThan(50);

      await waitUntil(async () => (await deliveries(b, tenantId)).length === 1, 5_000, "the delivery listed");
      expect((await deliveries(a, tenantId))[0]).toMatchObject({
        id: payload.id,
        type: "refusal_rate",
        outcome: "delivered",
        attempts: 1,
        httpStatus: 200,
        error: null,
      });
      expect(await metric("sluice_alert_deliveries_total", 'type="refusal_rate",outcome="delivered"')).toBe(1);
    } finally {
      await hook.close();
    }
  }, 120_000);

  it("a client hitting its limit, a failing receiver: retried with the same alert id until it answers", async () => {
    const hook = await receiver([500, 503]);
    try {
      await awayFromWindowEdge(MINUTE, 30_000);
      const { tenantId, key, secret } = await fixture(1, {
        webhookUrl: hook.url,
        clientLimit: { hits: 3, windowMinutes: 1 },
      });
      for (let i = 0; i < 6; i++) await apiCall(a.url, "/api/v1/echo", { key });

      await waitUntil(async () => hook.received.length >= 3, 15_000, "three attempts");
      await sleep(10 * INTERVAL_MS);
      expect(hook.received).toHaveLength(3);
      const ids = new Set(hook.received.map((r) => r.headers["sluice-alert-id"]));
      expect(ids.size).toBe(1);
      expect(hook.received.map((r) => r.headers["sluice-alert-attempt"])).toEqual(["1", "2", "3"]);
      for (const r of hook.received)
        expect(verifyWebhookSignature(secret, r.body, r.headers["sluice-signature"] as string, r.atMs)).toBe(true);
      const payload = JSON.parse(hook.received[2]!.body) as AlertPayload;
      expect(payload).toMatchObject({ type: "client_limit", tenant: { id: tenantId } });
      const clients = (payload.observed as { clients: { hits: number }[] }).clients;
      expect(clients).toEqual([
        {
          subject: { ref: expect.any(String), scope: "key", value: expect.any(String) },
          hits: expect.any(Number),
          rule: "echo",
        },
      ]);
      expect(clients[0]!.hits).toBeGreaterThanOrEqual(3);

      await waitUntil(async () => (await deliveries(a, tenantId)).length === 1, 5_000, "the delivery listed");
      expect((await deliveries(a, tenantId))[0]).toMatchObject({
        type: "client_limit",
        outcome: "delivered",
        attempts: 3,
        httpStatus: 200,
      });
      expect(await metric("sluice_alert_delivery_attempts_total", 'result="http_error"')).toBeGreaterThanOrEqual(2);
    } finally {
      await hook.close();
    }
  }, 120_000);
});
