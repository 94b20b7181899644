/**
 * The tenants list and a tenant page: creating a tenant (a duplicate is refused inline), creating
 * a key (shown once, with a copy button and a warning), and a viewer who sees the same pages with
 * no change controls. Names carry markup on purpose: it must show as text (a dialog fails the test).
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";
import { uniqueName } from "./support/adminApi";
import { MARKUP_NAME } from "./support/markup";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("an admin creates a tenant (a duplicate name is refused inline) and a key that is shown once", async ({
  page,
  consoleErrors,
}, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/tenants");
  await expect(page.getByRole("heading", { level: 1, name: "Tenants" })).toBeVisible();

  const name = `${MARKUP_NAME} ${uniqueName("tenant")}`;
  await page.getByLabel("Tenant name").fill(name);
  await page.getByRole("button", { name: "Create tenant" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Created tenant" })).toContainText(name);
  await expect(page.getByRole("table").getByRole("link", { name })).toBeVisible();

  // The same name again: the server's 409, shown on the field.
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 409/);
  await page.getByLabel("Tenant name").fill(name);
  await page.getByRole("button", { name: "Create tenant" }).click();
  await expect(page.getByLabel("Tenant name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(`A tenant named "${name}" already exists.`)).toBeVisible();
  await expect(page.getByRole("table").getByRole("link", { name })).toHaveCount(1);
  await attachScreenshot(page, testInfo, "tenants");

  await page.getByRole("table").getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("link", { name: "Audit log of this tenant" })).toHaveAttribute(
    "href",
    /^\/audit\?tenantId=[0-9A-Za-z]{8}$/,
  );

  // An empty key name never reaches the server.
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("name must not be empty")).toBeVisible();

  const keyName = `${MARKUP_NAME} checkout key`;
  await page.getByLabel("Key name").fill(keyName);
  await page.getByRole("button", { name: "Create key" }).click();
  const notice = page.getByRole("region", { name: `New key ${keyName}` });
  await expect(notice).toContainText("It is shown only once");
  const key = await notice.getByLabel("The new key").inputValue();
  expect(key).toMatch(/^sluice_[0-9A-Za-z]{8}_[0-9A-Za-z]{22}$/);
  await notice.getByRole("button", { name: "Copy key" }).click();
  await expect(notice.getByRole("status")).toHaveText("The key is on your clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expect(page.getByRole("table", { name: "API keys" }).getByRole("link", { name: keyName })).toBeVisible();
  await attachScreenshot(page, testInfo, "tenant page with the new key");

  // Dismissed, the key is gone from the page for good (only its prefix remains).
  await notice.getByRole("button", { name: "I have stored it" }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("table", { name: "API keys" }).getByRole("link", { name: keyName })).toBeVisible();
  expect(await page.content()).not.toContain(key.slice("sluice_".length + 9));
});

test("a viewer sees tenants, keys, rules and quota but no change controls", async ({
  viewerPage: page,
  api,
}, testInfo) => {
  const tenant = await api.createTenant(uniqueName("viewer-tenant"));
  await api.putTenantRules(tenant.id, [{ name: "per-key", limit: 5, windowMs: 60_000 }]);
  const key = await api.createKey(tenant.id, "viewer-visible key");

  await page.goto("/tenants");
  await expect(page.getByRole("link", { name: tenant.name })).toBeVisible();
  await expect(page.getByLabel("Tenant name")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create tenant" })).toHaveCount(0);

  await page.goto(`/tenants/${tenant.id}`);
  await expect(page.getByRole("table", { name: "API keys" }).getByRole("link", { name: key.name })).toBeVisible();
  await expect(page.getByRole("table", { name: "Rules" }).getByText("per-key")).toBeVisible();
  await expect(page.getByRole("meter", { name: "per-key remaining" })).toHaveAttribute("aria-valuenow", "5");
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit rules" })).toHaveCount(0);
  await attachScreenshot(page, testInfo, "tenant page as viewer");

  await page.goto(`/keys/${key.id}`);
  await expect(page.getByRole("heading", { level: 1, name: key.name })).toBeVisible();
  await expect(page.getByRole("table", { name: "Effective rules" }).getByText("per-key")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit rules" })).toHaveCount(0);
  await attachScreenshot(page, testInfo, "key page as viewer");
});
