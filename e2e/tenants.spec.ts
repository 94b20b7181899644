/**
 * The tenants list: live key counts, requests and 429 sparklines of the last 24 h, a search; and
 * the drill-down from the overview's rows to a tenant and to one rule's traffic.
 */
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

const RULES = [{ name: "per-key", algorithm: "fixed_window", limit: 2, windowMs: 3_600_000 }];

test("the tenants list shows key counts and sparklines, and the search filters it", async ({ page, api, request }) => {
  const busy = await tenantWithKey(api, uniqueName("list-busy"), RULES);
  const quiet = await api.createTenant(uniqueName("list-quiet"));
  for (let i = 0; i < 4; i++) await echo(request, busy.key.key);

  await logInAsAdmin(page);
  await page.goto("/tenants");
  const rows = page.getByRole("table", { name: "All tenants" }).getByTestId("tenant-row");
  const busyRow = rows.filter({ hasText: busy.tenant.name });
  await expect(busyRow.getByRole("cell").nth(1)).toHaveText("1");
  // Requests and 429s of the last 24 h: a sparkline beside each total.
  await expect(
    busyRow.getByRole("img", { name: `Requests of ${busy.tenant.name} per hour, last 24 hours: 4 in all` }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(
    busyRow.getByRole("img", { name: `Refused requests of ${busy.tenant.name} per hour, last 24 hours: 2 in all` }),
  ).toBeVisible();
  await expect(busyRow.getByRole("cell").nth(3)).toHaveText("2");

  const search = page.getByRole("searchbox", { name: "Search tenants by name or id" });
  await search.fill(quiet.name);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(quiet.name);
  await expect(rows.first().getByRole("cell").nth(1)).toHaveText("0");
  await search.fill(busy.tenant.id);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(busy.tenant.name);
  await search.fill("no tenant is named like this");
  await expect(rows).toHaveCount(0);
  await expect(page.getByText("No tenant matches")).toBeVisible();

  await search.fill(busy.tenant.name);
  await rows.first().getByRole("link", { name: busy.tenant.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: busy.tenant.name })).toBeVisible();
});

test("drill-down: the overview's tenant and rule links open the tenant and that rule's traffic", async ({
  page,
  api,
  request,
}) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("drill"), RULES);
  for (let i = 0; i < 3; i++) await echo(request, key.key);

  await logInAsAdmin(page);
  await page.goto("/?range=15m");
  const row = page
    .getByRole("region", { name: "Limited right now" })
    .getByTestId("limited-row")
    .filter({ hasText: key.name });
  await expect(row.getByRole("link", { name: tenant.name })).toHaveAttribute("href", `/tenants/${tenant.id}`);
  const ruleLink = row.getByRole("link", { name: "per-key" });
  await expect(ruleLink).toHaveAttribute("href", `/tenants/${tenant.id}?rule=per-key#traffic`);

  await ruleLink.click();
  await expect(page).toHaveURL(new RegExp(`/tenants/${tenant.id}\\?rule=per-key#traffic$`));
  const traffic = page.getByRole("region", { name: "Requests per second, this rule" });
  await expect(traffic.getByTestId("traffic-totals")).toContainText("1 refused", { timeout: 15_000 });
  await page.getByRole("link", { name: "all rules" }).click();
  await expect(page.getByRole("region", { name: "Requests per second, this tenant" })).toBeVisible();
  // The tenant's own hot-key and 429-rate tables link each rule to its traffic too (the overview's
  // show only the top keys and rules of every tenant, which other tests' tenants may fill).
  const hot = page.getByRole("region", { name: "Hot callers" }).getByRole("row").filter({ hasText: key.name });
  await expect(hot.getByRole("link", { name: "per-key" })).toHaveAttribute(
    "href",
    `/tenants/${tenant.id}?rule=per-key#traffic`,
    { timeout: 15_000 },
  );
  const perRule = page
    .getByRole("region", { name: "429 rate per rule" })
    .getByRole("row")
    .filter({ hasText: "per-key" });
  await expect(perRule.getByRole("link", { name: "per-key" })).toHaveAttribute(
    "href",
    `/tenants/${tenant.id}?rule=per-key#traffic`,
    { timeout: 15_000 },
  );
});
