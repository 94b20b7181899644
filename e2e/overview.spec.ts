import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { MARKUP_NAME } from "./support/markup";
import { logInAsAdmin } from "./support/session";

// Fixed windows are aligned to the epoch. An hour, so that the quota read at the end of the test is
// still the burst's window (a one-minute window could roll over in between and show "3 of 3 left").
const WINDOW_MS = 3_600_000;

const RULES = [
  // Three requests per window: the rest of a quick burst is refused.
  { name: "per-key", algorithm: "fixed_window", limit: 3, windowMs: WINDOW_MS },
  // Would refuse from the second request on, and never refuses.
  { name: "trial", algorithm: "fixed_window", limit: 1, windowMs: 60_000, mode: "shadow" },
];

test("the overview shows who is limited, traffic, 429 rates and hot keys", async ({ page, api, request }, testInfo) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("overview"), RULES);
  // Start the burst with at least a minute of this window left.
  const msLeft = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (msLeft < 60_000) {
    testInfo.setTimeout(testInfo.timeout + msLeft);
    await new Promise((resolve) => setTimeout(resolve, msLeft + 100));
  }
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push(await echo(request, key.key));
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);

  await logInAsAdmin(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  // The charts poll every 2 s; decisions reach them within about a second.
  const traffic = page.getByRole("region", { name: "Requests per second, all tenants" });
  await expect(traffic.getByTestId("traffic-totals")).toContainText("refused", { timeout: 15_000 });
  await expect(traffic.locator(".recharts-area")).toHaveCount(2);
  await expect(traffic.locator(".recharts-line")).toHaveCount(1);

  const hotKeys = page.getByRole("region", { name: "Hot callers" });
  const keyRow = hotKeys.getByRole("row").filter({ hasText: key.name });
  await expect(keyRow).toHaveCount(1, { timeout: 15_000 });
  await expect(keyRow.getByRole("cell").nth(2)).toHaveText("8");
  await expect(keyRow).toContainText("per-key");
  await expect(keyRow.getByRole("link", { name: key.name })).toHaveAttribute("href", `/keys/${key.id}`);

  const perTenant = page.getByRole("region", { name: "429 rate per tenant" });
  await expect(perTenant.getByRole("row").filter({ hasText: tenant.name })).toHaveCount(1);
  const perRule = page.getByRole("region", { name: "429 rate per rule" });
  await expect(perRule.getByRole("row").filter({ hasText: `${tenant.name} · per-key` })).toHaveCount(1);
  await expect(perRule.getByRole("row").filter({ hasText: `${tenant.name} · trial (shadow)` })).toHaveCount(1);

  const limited = page.getByRole("region", { name: "Limited right now" });
  await expect(limited.getByRole("row").filter({ hasText: key.name })).toContainText("0 of 3 left");
  // The shadow rule would refuse too, but refuses nobody: it is not "limited".
  await expect(limited.getByRole("row").filter({ hasText: "trial" })).toHaveCount(0);

  await attachScreenshot(page, testInfo, "overview (5 min)");

  await page.getByRole("button", { name: "1 hour" }).click();
  await expect(page.getByRole("button", { name: "1 hour" })).toHaveAttribute("aria-pressed", "true");
  await expect(hotKeys.getByRole("row").filter({ hasText: key.name })).toHaveCount(1);
  await expect(hotKeys).toContainText("the last hour");
});

test("the overview refreshes without a reload", async ({ page, api, request }) => {
  const { key } = await tenantWithKey(api, uniqueName("live"), [{ name: "per-key", limit: 100, windowMs: 60_000 }]);
  await echo(request, key.key);
  await logInAsAdmin(page);
  await page.goto("/");
  const row = page.getByRole("region", { name: "Hot callers" }).getByRole("row").filter({ hasText: key.name });
  await expect(row.getByRole("cell").nth(2)).toHaveText("1", { timeout: 15_000 });
  for (let i = 0; i < 4; i++) await echo(request, key.key);
  await expect(row.getByRole("cell").nth(2)).toHaveText("5", { timeout: 15_000 });
});

test("a tenant named like markup is shown as text on the overview", async ({ page, api, request }, testInfo) => {
  const { key } = await tenantWithKey(api, MARKUP_NAME, [{ name: "per-key", limit: 1, windowMs: 60_000 }]);
  // 20 refusals: the per-tenant 429 chart lists the 5 tenants refusing most, and no other spec's
  // tenant is refused more than 10 times, so this one is among them whatever ran before.
  for (let i = 0; i < 21; i++) await echo(request, key.key);

  await logInAsAdmin(page);
  await page.goto("/");
  const row = page.getByRole("region", { name: "Hot callers" }).getByRole("row").filter({ hasText: key.name });
  await expect(row.getByRole("link", { name: MARKUP_NAME })).toBeVisible({ timeout: 15_000 });
  await expect(
    page.getByRole("region", { name: "429 rate per tenant" }).getByRole("cell", { name: MARKUP_NAME }),
  ).toBeVisible();
  // Rendered as text, no element was made from it (the fixture also fails on any dialog).
  await expect(page.locator("img")).toHaveCount(0);
  await attachScreenshot(page, testInfo, "overview with a markup-named tenant");
});
