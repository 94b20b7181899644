/**
 * The gateway upstream on a tenant's page: an admin sets it (invalid values refused on their
 * field, before anything is stored), changes it, and removes it; each change is what the admin
 * API answers and is in the audit log. A viewer sees the upstream but no controls.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("an admin sets, changes and removes a tenant's upstream; invalid values are refused inline", async ({
  page,
  api,
}, testInfo) => {
  const tenant = await api.createTenant(uniqueName("upstream-tenant"));
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Gateway upstream" });
  await expect(
    card.getByText("No upstream: requests to paths other than echo, check and authorize get 404."),
  ).toBeVisible();

  // Refused on their fields by the API's own schema: nothing reaches the server.
  const url = card.getByLabel("Upstream URL");
  const timeout = card.getByLabel("Timeout (ms)");
  await url.fill("ftp://files.example.com");
  await timeout.fill("50");
  await card.getByRole("button", { name: "Save upstream" }).click();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(card.getByText("url must use http or https")).toBeVisible();
  await expect(timeout).toHaveAttribute("aria-invalid", "true");
  await expect(card.getByText("timeoutMs must be at least 100")).toBeVisible();
  await url.fill("https://user:secret@orders.example.com");
  await timeout.fill("2500");
  await card.getByRole("button", { name: "Save upstream" }).click();
  await expect(card.getByText("url must not contain credentials (user:password@)")).toBeVisible();
  await expect(timeout).not.toHaveAttribute("aria-invalid", "true");
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/upstream`)).status).toBe(404);

  await url.fill("HTTPS://Orders.Example.com/v2/");
  await card.getByRole("button", { name: "Save upstream" }).click();
  await expect(card.getByRole("status")).toContainText("https://orders.example.com/v2");
  const current = card.getByRole("definition").first();
  await expect(current).toHaveText("https://orders.example.com/v2");
  await expect(card.getByText("2,500 ms")).toBeVisible();
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/upstream`)).body).toEqual({
    url: "https://orders.example.com/v2",
    timeoutMs: 2500,
  });
  await attachScreenshot(page, testInfo, "upstream set");

  // Signed requests: the secret is shown once, then only its hint.
  await card.getByLabel("Sign requests (X-Sluice-Signature)").check();
  await card.getByRole("button", { name: "Save upstream" }).click();
  const shown = card.getByTestId("upstream-secret");
  await expect(shown).toHaveText(/^upsec_[A-Za-z0-9_-]{43}$/);
  const secret = (await shown.textContent())!;
  await expect(card.getByText(`on (secret upsec_…${secret.slice(-4)})`)).toBeVisible();
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/upstream`)).body).toEqual({
    url: "https://orders.example.com/v2",
    timeoutMs: 2500,
    signRequests: true,
    secretHint: `upsec_…${secret.slice(-4)}`,
  });
  await page.reload();
  await expect(card.getByText(`on (secret upsec_…${secret.slice(-4)})`)).toBeVisible();
  await expect(card.getByTestId("upstream-secret")).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  // Changed: an empty timeout means the default.
  await url.fill("http://127.0.0.1:9000");
  await timeout.fill("");
  await card.getByRole("button", { name: "Save upstream" }).click();
  await expect(current).toHaveText("http://127.0.0.1:9000");
  await expect(card.getByText("30,000 ms")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Gateway upstream" }).getByLabel("Upstream URL")).toHaveValue(
    "http://127.0.0.1:9000",
  );

  await card.getByRole("button", { name: "Remove upstream" }).click();
  await card.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(
    card.getByText("No upstream: requests to paths other than echo, check and authorize get 404."),
  ).toBeVisible();
  await expect(card.getByLabel("Upstream URL")).toHaveValue("");
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/upstream`)).status).toBe(404);
  const actions = (await api.audit({ tenantId: tenant.id })).map((e) => e.action);
  expect(actions.slice(0, 3)).toEqual(["upstream.delete", "upstream.replace", "upstream.replace"]);
});

test("a viewer sees the upstream but cannot change or remove it", async ({ viewerPage: page, api }) => {
  const tenant = await api.createTenant(uniqueName("upstream-viewer"));
  expect(
    (
      await api.call("PUT", `/api/admin/tenants/${tenant.id}/upstream`, {
        url: "https://api.example.com",
        timeoutMs: 1000,
      })
    ).status,
  ).toBe(200);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Gateway upstream" });
  await expect(card.getByText("https://api.example.com")).toBeVisible();
  await expect(card.getByText("1,000 ms")).toBeVisible();
  await expect(card.getByLabel("Upstream URL")).toHaveCount(0);
  await expect(card.getByRole("button")).toHaveCount(0);
});
