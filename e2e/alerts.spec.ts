/**
 * In-product alerts on a tenant's page: an admin sets the webhook and a refusal-rate condition
 * (invalid values refused on their fields before anything is stored), sees the signing secret
 * once, and after a real refusal spike the delivery to a local receiver appears in the last
 * deliveries, its signature verified with that secret. A viewer sees the alerts but no controls.
 * The server may reach 127.0.0.1 through SLUICE_ALERT_ALLOWED_ADDRESSES (playwright.config.ts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "../lib/control/alerts/webhookSignature";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("an admin sets alerts with inline errors, sees the secret once, and a refusal spike's delivery is listed", async ({
  page,
  api,
  request,
}, testInfo) => {
  const received: { body: string; signature: string; atMs: number }[] = [];
  const hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: String(req.headers["sluice-signature"]),
        atMs: Date.now(),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  try {
    const { tenant, key } = await tenantWithKey(api, uniqueName("alerts-tenant"), [
      { name: "echo", scope: "key", algorithm: "fixed_window", limit: 1, windowMs: 60_000 },
    ]);
    await logInAsAdmin(page);
    await page.goto(`/tenants/${tenant.id}`);
    const card = page.getByRole("region", { name: "Alerts" });
    await expect(card.getByText("No alerts: nobody is told about refusal spikes.")).toBeVisible();
    await expect(card.getByText("No alert delivered yet.")).toBeVisible();

    // Refused on their fields by the API's own schema: nothing reaches the server.
    const url = card.getByLabel("Webhook URL");
    const threshold = card.getByLabel("Refusals above (%)");
    await url.fill("ftp://hooks.example.com");
    await threshold.fill("100");
    await card.getByRole("button", { name: "Save alerts" }).click();
    await expect(url).toHaveAttribute("aria-invalid", "true");
    await expect(card.getByText("webhookUrl must use http or https")).toBeVisible();
    await expect(threshold).toHaveAttribute("aria-invalid", "true");
    await expect(card.getByText("thresholdPct must be below 100")).toBeVisible();
    expect(
      (await api.call<{ settings: unknown }>("GET", `/api/admin/tenants/${tenant.id}/alerts`)).body.settings,
    ).toBeNull();

    await url.fill(hookUrl);
    await threshold.fill("50");
    await card.getByLabel("For (minutes)").fill("1");
    await card.getByLabel("At least (requests)").fill("5");
    await card.getByRole("button", { name: "Save alerts" }).click();
    const secret = (await card.getByTestId("alerts-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await expect(card.getByRole("definition").first()).toContainText(hookUrl);
    await expect(card.getByText("above 50 % for 1 min (at least 5 requests)")).toBeVisible();

    // A real spike: 1 admitted, 9 refused.
    for (let i = 0; i < 10; i++) await echo(request, key.key);
    const deliveries = card.getByRole("table", { name: "Last deliveries" });
    await expect(deliveries.getByRole("row").nth(1)).toContainText("Refusal rate", { timeout: 20_000 });
    await expect(deliveries.getByRole("row").nth(1)).toContainText("Delivered");
    await expect(deliveries.getByRole("row").nth(1)).toContainText("HTTP 204");
    // Exactly once per window is test/http/alertWebhooks.int.test.ts's; here the delivery listed is the one received.
    expect(received.length).toBeGreaterThanOrEqual(1);
    expect(verifyWebhookSignature(secret, received[0]!.body, received[0]!.signature, received[0]!.atMs)).toBe(true);
    await attachScreenshot(page, testInfo, "alerts delivered");

    const actions = (await api.audit({ tenantId: tenant.id })).map((e) => e.action);
    expect(actions[0]).toBe("alerts.replace");
    // The spike stays in the trailing minute: removed, so the next window does not alert a closed receiver.
    expect((await api.call("DELETE", `/api/admin/tenants/${tenant.id}/alerts`)).status).toBe(204);
  } finally {
    await new Promise((resolve) => hook.close(resolve));
  }
});

test("a viewer sees the alerts but cannot change or remove them", async ({ viewerPage: page, api }) => {
  const tenant = await api.createTenant(uniqueName("alerts-viewer"));
  expect(
    (
      await api.call("PUT", `/api/admin/tenants/${tenant.id}/alerts`, {
        webhookUrl: "https://hooks.example.com/x",
        clientLimit: { hits: 7, windowMinutes: 3 },
      })
    ).status,
  ).toBe(200);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Alerts" });
  await expect(card.getByText("7 refusals within 3 min")).toBeVisible();
  // The webhook URL is a capability: a viewer sees its origin and hint only.
  await expect(card.getByText("https://hooks.example.com/…", { exact: true })).toBeVisible();
  await expect(card.getByLabel("Webhook URL")).toHaveCount(0);
  await expect(card.getByRole("button")).toHaveCount(0);
});
