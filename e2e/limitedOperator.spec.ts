/**
 * An operator limited to one tenant (Operator.tenantIds) logs in and gets a dashboard of that
 * tenant only: the overview shows its tenant's live traffic (not the instance-wide panels it is
 * refused), the tenant list and the audit log only its tenant, no entries for the instance-wide
 * pages (operators, API tokens), whose URLs say why instead of failing. No error banner and no
 * failed request anywhere (the fixture fails a test on any console error, a 403 included).
 */
import type { Page } from "@playwright/test";
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { deleteLoggedInOperator, logInAs } from "./support/session";

const PASSWORD = "correct horse battery staple";

/** No error state and no error banner (scoped: Next's route announcer is an alert region of its own). */
async function noErrorBanner(page: Page): Promise<void> {
  await expect(page.locator(".shell").getByRole("alert")).toHaveCount(0);
  await expect(page.locator(".state-error, .banner-error")).toHaveCount(0);
}

test("an operator limited to a tenant sees only that tenant, with its traffic, and no error", async ({
  page,
  api,
}, testInfo) => {
  const { tenant: mine, key } = await tenantWithKey(api, uniqueName("limited-mine"), [
    { name: "per-key", limit: 100, windowMs: 60_000 },
  ]);
  const other = await api.createTenant(uniqueName("limited-other"));
  const email = `${uniqueName("limited-op")}@sluice.test`;
  const operator = await api.createOperator({ email, password: PASSWORD, role: "admin", tenantIds: [mine.id] });
  try {
    for (let i = 0; i < 3; i++) expect(await echo(page.request, key.key)).toBe(200);
    await logInAs(page, email, PASSWORD);

    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Tenants" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Operators" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "API tokens" })).toHaveCount(0);
    const section = page.getByRole("region", { name: `Tenant ${mine.name}` });
    await expect(section.getByRole("link", { name: mine.name })).toBeVisible();
    await expect(section.getByText(`Requests per second, ${mine.name}`)).toBeVisible();
    // The three requests above show in the tenant's traffic.
    await expect(section.getByTestId("traffic-totals")).toContainText("3 allowed", { timeout: 15_000 });
    await expect(page.getByText("Requests per second, all tenants")).toHaveCount(0);
    await expect(page.getByText(other.name)).toHaveCount(0);
    await noErrorBanner(page);
    await attachScreenshot(page, testInfo, "overview of a limited operator");

    await page.goto("/tenants");
    const rows = page.getByTestId("tenant-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(mine.name);
    await expect(page.getByRole("region", { name: "New tenant" })).toHaveCount(0);
    await noErrorBanner(page);

    await rows.first().getByRole("link", { name: mine.name }).click();
    await expect(page).toHaveURL(new RegExp(`/tenants/${mine.id}$`));
    await expect(page.getByRole("heading", { name: mine.name, level: 1 })).toBeVisible();
    await expect(page.getByTestId("traffic-totals")).toContainText("3 allowed", { timeout: 15_000 });
    await noErrorBanner(page);

    await page.goto("/audit");
    await expect(page.getByLabel("Tenant", { exact: true })).toHaveValue(mine.id);
    await expect(page.getByText(other.name)).toHaveCount(0);
    await noErrorBanner(page);

    await page.goto("/operators");
    await expect(page.getByRole("heading", { name: "Operators" })).toBeVisible();
    await expect(page.getByText("Your account is limited to one tenant")).toBeVisible();
    await noErrorBanner(page);
    await attachScreenshot(page, testInfo, "an instance-wide page for a limited operator");
  } finally {
    await deleteLoggedInOperator(page, api, operator.id);
  }
});
