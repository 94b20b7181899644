import { uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { MARKUP_NAME } from "./support/markup";
import { logInAsAdmin } from "./support/session";

const rule = (limit: number) => ({ name: "per-key", algorithm: "sliding_window", limit, windowMs: 60_000 });

test("a rule change shows before and after, and an admin reverts it", async ({ page, api }, testInfo) => {
  const tenant = await api.createTenant(uniqueName("audit"));
  await api.putTenantRules(tenant.id, [rule(5)]);
  await api.putTenantRules(tenant.id, [rule(10)]);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(page.getByLabel("Tenant")).toHaveValue(tenant.id);

  const [change] = await api.audit({ tenantId: tenant.id, limit: 1 });
  const entries = page.getByRole("article");
  await expect(entries).toHaveCount(3); // tenant.create and two rules.replace
  const latest = page.getByRole("article", { name: `rules.replace #${change!.id}`, exact: true });
  await expect(entries.first()).toHaveAccessibleName(`rules.replace #${change!.id}`);
  await expect(latest).toContainText("admin API token");
  await expect(latest.getByLabel("Before")).toContainText('"limit": 5');
  await expect(latest.getByLabel("After")).toContainText('"limit": 10');
  await expect(latest.locator(".diff-removed")).toContainText(['"limit": 5,']);
  await expect(latest.locator(".diff-added")).toContainText(['"limit": 10,']);
  // Creating a tenant is not a change that can be reverted: no button offers it.
  await expect(entries.last().getByRole("button", { name: "Revert" })).toHaveCount(0);
  await attachScreenshot(page, testInfo, "audit log");

  await latest.getByRole("button", { name: "Revert" }).click();
  await latest.getByRole("button", { name: "Yes, revert" }).click();
  await expect(latest.getByRole("status")).toContainText("Reverted. The revert is recorded as change #");
  expect((await api.getTenantRules(tenant.id)).map((r) => r.limit)).toEqual([5]);

  // The revert is itself a change, listed first (the list is live).
  await expect(entries).toHaveCount(4);
  await expect(entries.first()).toContainText("rules.replace.revert");
  await expect(entries.first().getByLabel("After")).toContainText('"limit": 5');
});

test("a revert the current state does not allow shows the server's reason", async ({ page, api, consoleErrors }) => {
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 409/);
  const tenant = await api.createTenant(uniqueName("audit-409"));
  const key = await api.createKey(tenant.id, uniqueName("key"));
  const revoked = await api.call("DELETE", `/api/admin/keys/${key.id}`);
  expect(revoked.status).toBe(204);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  const [revocationEvent] = await api.audit({ tenantId: tenant.id, limit: 1 });
  expect(revocationEvent!.action).toBe("key.revoke");
  const revocation = page.getByRole("article", { name: `key.revoke #${revocationEvent!.id}`, exact: true });
  await expect(revocation).toHaveCount(1);
  // The first revert un-revokes the key; a second one has nothing left to undo.
  for (const outcome of ["Reverted.", "Could not revert:"]) {
    await revocation.getByRole("button", { name: "Revert" }).click();
    await revocation.getByRole("button", { name: "Yes, revert" }).click();
    await expect(revocation).toContainText(outcome);
  }
  await expect(revocation.getByRole("alert")).toHaveText(`Could not revert: API key ${key.id} is not revoked any more.`);
});

test("older changes load page by page", async ({ page, api }) => {
  const tenant = await api.createTenant(uniqueName("audit-pages"));
  // tenant.create plus 51 rule changes: two pages of 50.
  for (let limit = 1; limit <= 51; limit++) await api.putTenantRules(tenant.id, [rule(limit)]);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  const entries = page.getByRole("article");
  await expect(entries).toHaveCount(50);
  await page.getByRole("button", { name: "Older changes" }).click();
  await expect(entries).toHaveCount(52);
  await expect(entries.last()).toContainText("tenant.create");
  await expect(page.getByRole("button", { name: "Older changes" })).toHaveCount(0);
});

test("a tenant named like markup is shown as text in the audit log", async ({ page, api }, testInfo) => {
  const tenant = await api.ensureTenant(MARKUP_NAME);
  await api.putTenantRules(tenant.id, [rule(7)]);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  await expect(page.getByLabel("Tenant").locator("option:checked")).toHaveText(MARKUP_NAME);
  const latest = page.getByRole("article").first();
  await expect(latest.getByRole("link", { name: MARKUP_NAME })).toHaveAttribute("href", `/tenants/${tenant.id}`);
  await expect(page.locator("img")).toHaveCount(0);
  await attachScreenshot(page, testInfo, "audit log of a markup-named tenant");
});
