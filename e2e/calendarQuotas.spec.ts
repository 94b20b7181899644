/**
 * Issue 33 in the browser: calendar quotas, usage and grants as an operator uses them.
 * - the rule editor's calendar controls: a fixed_window rule counted per calendar month in a time
 *   zone (an unknown zone refused in the form, nothing sent), saved, and shown in the rule list as
 *   "per calendar month (Europe/Berlin)";
 * - the Usage page (/tenants/[id]/usage): its quota picker, this period, the last 12 periods'
 *   table, and its CSV link answering CSV rows with the API's header;
 * - the key page's Grants card: a key at its limit gets a grant's units (the next request passes),
 *   the grant is listed, and ending it takes the units back (the next request is refused again).
 */
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { newRuleForm } from "./support/newRuleForm";
import { logInAsAdmin } from "./support/session";

test("the rule editor counts per calendar month in a time zone, and the rule list says so", async ({
  page,
  api,
}, testInfo) => {
  const { tenant, form, puts } = await newRuleForm(page, api, "calendar", "monthly");
  await form.getByLabel("Algorithm").selectOption("fixed_window");
  await form.getByLabel("Limit").fill("10000");
  await form.getByLabel("Calendar period").selectOption("month");
  // A calendar period replaces the window: the form asks for a time zone instead.
  await expect(form.getByLabel("Window")).toHaveCount(0);
  const zone = form.getByLabel("Time zone");
  await zone.fill("Mars/Olympus");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByText("Time zone must be an IANA time zone name")).toBeVisible();
  expect(puts()).toBe(0);

  await zone.fill("Europe/Berlin");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  expect(puts()).toBe(1);
  const list = page.getByRole("table", { name: "Rules" });
  await expect(list.getByRole("row", { name: /monthly/ })).toContainText("10,000 per calendar month (Europe/Berlin)");
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "monthly", algorithm: "fixed_window", period: "month", timeZone: "Europe/Berlin" }),
  ]);
  expect((await api.getTenantRules(tenant.id))[0]).not.toHaveProperty("windowMs");
  await attachScreenshot(page, testInfo, "rule list with a calendar month rule");
});

test("the Usage page shows this period and the last 12, and its CSV link answers CSV", async ({
  page,
  api,
  request,
}, testInfo) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("usage"), [
    { name: "daily-quota", algorithm: "fixed_window", limit: 100, windowMs: 86_400_000 },
  ]);
  expect(await echo(request, key.key)).toBe(200);

  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}/usage`);
  await expect(page.getByRole("heading", { name: "Usage", level: 1 })).toBeVisible();
  const picker = page.getByRole("combobox", { name: "Quota" });
  await expect(picker.locator("option:checked")).toHaveText("daily-quota (100 per 1 d)");
  await expect(page.getByText(/^\d+ units used, \d+ refused$/)).toBeVisible();
  await expect(page.getByRole("meter", { name: "Quota of daily-quota" })).toBeVisible();
  // This period and the 12 before it, newest first: one row each under the header.
  const table = page.locator("table").filter({ hasText: "Period start" });
  await expect(table.locator("tbody tr")).toHaveCount(13);

  // All requests per calendar month instead of the quota.
  await picker.selectOption({ label: "All requests, per calendar month (UTC)" });
  await expect(page.getByText(/^\d+ requests admitted, \d+ refused$/)).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(13);

  const csvLink = page.getByRole("link", { name: "Download CSV (by key)" });
  const href = await csvLink.getAttribute("href");
  expect(href).toContain(`/api/admin/tenants/${tenant.id}/usage`);
  expect(href).toContain("format=csv");
  // The link answers with the operator's session (the browser's cookies), as a download would.
  const answer = await page.request.get(href!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toContain("text/csv");
  expect((await answer.text()).split("\r\n")[0]).toBe("start,key,admitted,refused,units");
  await attachScreenshot(page, testInfo, "usage page");
});

test("the key page's Grants card: a grant lets a limited key through, ending it limits it again", async ({
  page,
  api,
  request,
}, testInfo) => {
  const { key } = await tenantWithKey(api, uniqueName("grants"), [
    { name: "per-key", algorithm: "fixed_window", limit: 2, windowMs: 3_600_000 },
  ]);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push(await echo(request, key.key));
  expect(statuses).toEqual([200, 200, 429]);

  await logInAsAdmin(page);
  await page.goto(`/keys/${key.id}`);
  const card = page.getByRole("region", { name: "Grants" });
  await expect(card.getByTestId("no-grants")).toHaveText("No running grants.");
  const form = card.getByRole("form", { name: "Add a grant" });
  // Checked as typed: no units, no grant.
  await form.getByRole("button", { name: "Grant units" }).click();
  await expect(form.getByLabel("Units")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Units").fill("2");
  await form.getByLabel("Rule (empty: every key rule)").fill("per-key");
  await form.getByRole("button", { name: "Grant units" }).click();
  const row = card.getByRole("row").filter({ hasText: "per-key" });
  await expect(row).toContainText("2");
  await expect(card.getByTestId("no-grants")).toHaveCount(0);
  // In force on every instance within 1 s.
  await expect.poll(() => echo(request, key.key), { timeout: 5_000 }).toBe(200);
  await attachScreenshot(page, testInfo, "key page with a running grant");

  await row.getByRole("button", { name: "End" }).click();
  await expect(card.getByTestId("no-grants")).toHaveText("No running grants.");
  await expect.poll(() => echo(request, key.key), { timeout: 5_000 }).toBe(429);
  const events = await api.audit({ limit: 20 });
  expect(events.some((e) => e.action === "key.grant" && e.target === `key:${key.id}`)).toBe(true);
});
