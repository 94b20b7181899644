/**
 * The operator's journey through a limit, all in the browser: a tenant and a key are created, a
 * rule is set, the key is used until 429, its remaining quota falls and the refusal shows among
 * its recent decisions, the limit is raised and the next request passes, the overview shows the
 * refusal and the key among the hot keys, the raise is reverted from the audit log (refused again),
 * and the key is revoked (with confirmation), after which the API answers 401.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { echo, uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("create, limit, refuse, raise, revoke: the key page follows every step live", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  await logInAsAdmin(page);

  // A tenant and a key, created in the browser.
  const tenantName = uniqueName("journey");
  await page.goto("/tenants");
  await page.getByLabel("Tenant name").fill(tenantName);
  await page.getByRole("button", { name: "Create tenant" }).click();
  await page.getByRole("status").filter({ hasText: "Created tenant" }).getByRole("link", { name: tenantName }).click();
  await expect(page.getByRole("heading", { level: 1, name: tenantName })).toBeVisible();
  const tenantUrl = page.url();

  await page.getByLabel("Key name").fill("journey key");
  await page.getByRole("button", { name: "Create key" }).click();
  const notice = page.getByRole("region", { name: "New key journey key" });
  await expect(notice.getByRole("button", { name: "Copy key" })).toBeVisible();
  const key = await notice.getByLabel("The new key").inputValue();
  await notice.getByRole("button", { name: "I have stored it" }).click();

  // A rule: 3 requests per hour, exact (sliding log), so no window boundary moves the figures.
  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Rules" });
  await form.getByRole("button", { name: "Add rule" }).click();
  await form.getByLabel("Name", { exact: true }).fill("per-key");
  await form.getByLabel("Algorithm").selectOption("sliding_log");
  await form.getByLabel("Limit").fill("three");
  await form.getByLabel("Window").fill("1 h");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByLabel("Limit")).toHaveAccessibleDescription(/Limit must be a whole number/);
  await form.getByLabel("Limit").fill("3");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText(
    "in force on every instance",
  );

  // The key page before any request: the whole quota.
  await page.getByRole("table", { name: "API keys" }).getByRole("link", { name: "journey key" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "journey key" })).toBeVisible();
  const meter = page.getByRole("meter", { name: "per-key remaining" });
  await expect(meter).toHaveAttribute("aria-valuenow", "3");

  // Use the key until the limit refuses it.
  const statuses: number[] = [];
  for (let i = 0; i < 10 && !statuses.includes(429); i++) statuses.push(await echo(request, key));
  expect(statuses).toEqual([200, 200, 200, 429]);

  await expect(meter).toHaveAttribute("aria-valuenow", "0", { timeout: 10_000 });
  await expect(page.getByRole("row", { name: /per-key/ }).filter({ has: meter })).toContainText("0 of 3 left");
  const decisions = page.getByRole("table", { name: "Recent decisions" });
  await expect(decisions.getByRole("row").nth(1)).toContainText("refused (429) by per-key", { timeout: 10_000 });
  await expect(decisions.getByRole("row").filter({ hasText: "allowed" })).toHaveCount(3);
  await attachScreenshot(page, testInfo, "key page after a refusal");

  // Raise the limit on the tenant page; the very next request passes.
  await page.goto(tenantUrl);
  await page.getByRole("button", { name: "Edit rules" }).click();
  await form.getByRole("button", { name: "Edit Rule 1: per-key" }).click();
  await form.getByLabel("Limit").fill("10");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText(
    "in force on every instance",
  );
  expect(await echo(request, key)).toBe(200);
  // 3 admitted before, the refused one consumed nothing, 1 now: 6 of 10 left.
  await expect(page.getByRole("meter", { name: "per-key remaining" })).toHaveAttribute("aria-valuenow", "6", {
    timeout: 10_000,
  });
  await attachScreenshot(page, testInfo, "tenant page after raising the limit");

  // The overview shows the refusal and the key among the hot keys.
  await page.goto("/");
  const traffic = page.getByRole("region", { name: "Requests per second, all tenants" });
  await expect(traffic.getByTestId("traffic-totals")).toContainText("refused", { timeout: 15_000 });
  const hotKey = page.getByRole("region", { name: "Hot callers" }).getByRole("row").filter({ hasText: tenantName });
  await expect(hotKey).toContainText("journey key", { timeout: 15_000 });
  await expect(hotKey).toContainText("per-key");
  await attachScreenshot(page, testInfo, "overview with the journey key");

  // The raise is in the audit log; reverting it puts the limit of 3 back in force at once.
  await page.goto(tenantUrl);
  await page.getByRole("link", { name: "Audit log of this tenant" }).click();
  // Newest first: the latest rules change (a revert would be headed "… reverted by …").
  const raise = page.getByRole("article", { name: /^Rules of tenant .* replaced by .* #\d+$/ }).first();
  await expect(raise.getByLabel("After")).toContainText('"limit": 10');
  await expect(raise.getByLabel("Before")).toContainText('"limit": 3');
  await raise.getByRole("button", { name: "Revert" }).click();
  await raise.getByRole("button", { name: "Yes, revert" }).click();
  await expect(raise.getByRole("status")).toContainText("Reverted");
  expect(await echo(request, key)).toBe(429);
  await page.goto(tenantUrl);

  // Revoke, cancelling once first.
  const keys = page.getByRole("table", { name: "API keys" });
  await keys.getByRole("button", { name: "Revoke key journey key" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke key journey key?" });
  await expect(dialog).toContainText("refused (401) on every instance");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // Not revoked: still answered by the (reverted) limit, not 401.
  expect(await echo(request, key)).toBe(429);

  await keys.getByRole("button", { name: "Revoke key journey key" }).click();
  await attachScreenshot(page, testInfo, "revoke confirmation");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(dialog).toBeHidden();
  await expect(keys.getByRole("row", { name: /journey key/ })).toContainText("revoked");
  await expect(keys.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expect.poll(() => echo(request, key), { timeout: 2_000 }).toBe(401);

  // The key page marks it revoked and offers no editing.
  await keys.getByRole("link", { name: "journey key" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /journey key/ })).toContainText("revoked");
  await expect(page.getByText("This key was revoked on")).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit rules" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expect(page.getByRole("meter")).toHaveCount(0);
  await attachScreenshot(page, testInfo, "revoked key page");
});
