/**
 * Key expiry in the browser: the expiry editor on the key page checks its input inline, a time in
 * the past expires the key (the page and the tenant's key list say so, the API answers 401), a
 * later time shows on the page, and "Never expires" makes the key work again.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("expire a key from its page, see it everywhere, then lift the expiry", async ({
  page,
  request,
  api,
}, testInfo) => {
  await logInAsAdmin(page);
  const { tenant, key } = await tenantWithKey(api, uniqueName("expiry"), []);
  expect(await echo(request, key.key)).toBe(200);

  await page.goto(`/keys/${key.id}`);
  await expect(page.getByRole("heading", { level: 1, name: key.name })).toBeVisible();
  await expect(page.getByTestId("key-expires")).toHaveText("never");
  const form = page.getByRole("form", { name: "Key expiry" });
  const field = form.getByLabel("Expires at (your local time)");

  // Nothing chosen: an inline error on the field, nothing sent.
  await form.getByRole("button", { name: "Save expiry" }).click();
  await expect(field).toHaveAccessibleDescription("Choose a date and time, or use Never expires.");

  // A later time: shown on the page, the key still works.
  await field.fill("2099-01-01T12:00");
  await form.getByRole("button", { name: "Save expiry" }).click();
  await expect(page.getByTestId("key-expires")).toContainText("2099");
  expect(await echo(request, key.key)).toBe(200);

  // A time in the past expires it now.
  await field.fill("2020-01-01T00:00");
  await form.getByRole("button", { name: "Save expiry" }).click();
  await expect(page.getByRole("status").filter({ hasText: "This key expired" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("expired");
  expect(await echo(request, key.key)).toBe(401);
  await attachScreenshot(page, testInfo, "expired key page");

  // The tenant's key list shows the expiry and the status.
  await page.goto(`/tenants/${tenant.id}`);
  const row = page.getByRole("table", { name: "API keys" }).getByRole("row").filter({ hasText: key.name });
  await expect(row).toContainText("2020");
  await expect(row).toContainText("expired");

  // Lift it again.
  await page.goto(`/keys/${key.id}`);
  await page.getByRole("form", { name: "Key expiry" }).getByRole("button", { name: "Never expires" }).click();
  await expect(page.getByTestId("key-expires")).toHaveText("never");
  await expect(page.getByRole("status").filter({ hasText: "This key expired" })).toHaveCount(0);
  expect(await echo(request, key.key)).toBe(200);

  const events = await api.audit({ tenantId: tenant.id, limit: 5 });
  expect(events.slice(0, 3).map((e) => e.action)).toEqual(["key.expiry", "key.expiry", "key.expiry"]);
});
