/**
 * Issue 31, "the dashboard at 3 a.m.", points 3 and 8, as an operator on call walks them:
 * - a limited key's page is where the incident is resolved: its traffic and refusals by rule per
 *   minute, with configuration changes marked, the rate now, the quota now, "Override" on the
 *   effective rule and the recent decisions below; a JWT subject's or an anonymous IP's caller
 *   page has the same chart (point 3);
 * - the audit log in words: headed "Rules of tenant … replaced by …", the raw JSON behind an
 *   expand without a burst the algorithm does not use, a reverted change marked "reverted" with no
 *   Revert; forms checked as typed; a bucket's "Refill period"; dates typed as "27 Nov 2026"
 *   (point 8).
 */
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";
import { ADMIN_EMAIL } from "./support/testEnv";

test("point 3: a limited key's page charts its traffic and refusals by rule, with change markers, the rate and quota now, Override and the decisions", async ({
  page,
  api,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { tenant, key } = await tenantWithKey(api, uniqueName("history"), [
    { name: "per-key", algorithm: "sliding_log", limit: 3, windowMs: 60_000 },
    { name: "burst", algorithm: "token_bucket", limit: 1, windowMs: 60_000, burst: 10 },
  ]);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push(await echo(request, key.key));
  expect(statuses).toEqual([200, 200, 200, 429, 429]);

  await logInAsAdmin(page);
  await page.goto(`/keys/${key.id}`);
  const chart = page.getByRole("region", { name: "Traffic and refusals by rule" });
  await expect(chart.getByRole("button", { name: "1 hour", exact: true })).toHaveAttribute("aria-pressed", "true");
  // The numbers: 5 requests, 2 refused, both by per-key (the recorder flushes within seconds).
  await expect(chart.getByTestId("caller-totals")).toContainText("5 requests, 2 refused (2 by per-key)", {
    timeout: 15_000,
  });
  await expect(chart.getByRole("button", { name: "Refused by per-key" })).toBeVisible();
  await expect(chart.getByTestId("caller-now")).toContainText(
    /^Now: (No requests in the last minute|\d+ requests? in the last minute)/,
  );
  // The rules were saved within the hour: the change is marked on the chart.
  await expect(chart.locator(".change-marker").first()).toBeAttached({ timeout: 15_000 });
  await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /configuration changes? marked/);
  // Quota now, Override on the rule in force, and the decisions below.
  await expect(page.getByRole("region", { name: "Remaining quota" })).toBeVisible();
  const rules = page.getByRole("region", { name: "Effective rules" });
  await rules.getByRole("button", { name: "Override per-key" }).click();
  const form = rules.getByRole("form", { name: "Override per-key for this key" });
  await expect(form.getByLabel("Limit")).toHaveValue("3");
  await expect(form.getByLabel("Window")).toHaveValue("1 min");
  await expect(page.getByRole("table", { name: "Recent decisions" })).toContainText("per-key");
  const chartBox = await chart.boundingBox();
  const decisionsBox = await page.getByRole("table", { name: "Recent decisions" }).boundingBox();
  expect(chartBox!.y).toBeLessThan(decisionsBox!.y);
  await chart.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "key page: traffic and refusals by rule, change markers, rate now");

  // Ranges past an hour read per hour.
  await chart.getByRole("button", { name: "6 hours", exact: true }).click();
  await expect(chart.getByText(/Requests per hour, the last 6 hours/)).toBeVisible();

  // The caller page of a caller that is not a key: reachable by its address, in words.
  await page.goto(`/tenants/${tenant.id}/callers/${encodeURIComponent("@203.0.113.7")}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anonymous IP 203.0.113.7");
  await expect(page.getByRole("region", { name: "Traffic and refusals by rule" })).toContainText(
    "No requests in the last hour.",
  );
  await expect(page.getByRole("region", { name: "Quota now" })).toContainText(
    "No rule refused this caller in the last minute.",
  );
  await attachScreenshot(page, testInfo, "caller page of an anonymous IP");
});

test("point 8: the audit log in words, a reverted change marked, forms checked as typed, Refill period, dates as 27 Nov 2026", async ({
  page,
  api,
}, testInfo) => {
  test.setTimeout(120_000);
  const rule = (limit: number) => ({ name: "per-key", algorithm: "sliding_window", limit, windowMs: 60_000 });
  const tenant = await api.createTenant(uniqueName("words"));
  await api.putTenantRules(tenant.id, [rule(120)]);
  await api.putTenantRules(tenant.id, [rule(2000)]);
  const [change] = await api.audit({ tenantId: tenant.id, limit: 1 });

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  const heading = `Rules of tenant ${tenant.name} replaced by admin API token`;
  const entry = page.getByRole("article", { name: `${heading} #${change!.id}`, exact: true });
  await expect(entry.getByRole("heading", { level: 2 })).toHaveText(heading);
  await expect(entry.locator(".audit-sentence")).toHaveText(`Rules of ${tenant.name}: per-key: 120 → 2,000 per min`);
  // Raw JSON only behind an expand, and without a burst a sliding window does not use.
  await expect(entry.getByLabel("After")).toBeHidden();
  await entry.getByText("Raw JSON, before and after").click();
  await expect(entry.getByLabel("After")).toContainText('"limit": 2000');
  await expect(entry.getByLabel("After")).not.toContainText("burst");
  await expect(entry).not.toContainText("rules.replace");
  await attachScreenshot(page, testInfo, "audit entry headed in words");

  await entry.getByRole("button", { name: "Revert" }).click();
  await entry.getByRole("button", { name: "Yes, revert" }).click();
  await expect(entry.getByRole("status")).toContainText("Reverted.");
  await expect(entry.getByTestId("audit-reverted")).toContainText("reverted");
  await expect(entry.getByRole("button", { name: "Revert" })).toHaveCount(0);
  // Still so after a reload: the list says which revert undid it.
  await page.reload();
  await expect(entry.getByTestId("audit-reverted")).toContainText(/reverted by #\d+/);
  await expect(entry.getByRole("button", { name: "Revert" })).toHaveCount(0);
  const revert = page.getByRole("article").first();
  await expect(revert.getByRole("heading", { level: 2 })).toHaveText(
    `Rules of tenant ${tenant.name} reverted by ${ADMIN_EMAIL}`,
  );
  await attachScreenshot(page, testInfo, "a reverted change marked, no Revert");

  // Days typed as the dashboard shows them; no US placeholder.
  const from = page.getByLabel("From");
  await expect(from).toHaveAttribute("placeholder", "27 Nov 2026");
  await from.fill("1 Jan 2099");
  await expect(page.getByText("No change matches these filters.")).toBeVisible();
  await expect(page).toHaveURL(/from=2099-01-01/);

  // The rule form checks as typed, with the route's schema, before any Save.
  await page.goto(`/tenants/${tenant.id}`);
  await page.getByRole("button", { name: "Edit rules" }).click();
  const rulesForm = page.getByRole("form", { name: "Rules" });
  await rulesForm.getByRole("button", { name: "Add rule" }).click();
  await rulesForm.getByLabel("Limit").last().fill("0");
  await expect(rulesForm.getByLabel("Limit").last()).toHaveAccessibleDescription(/Limit must be at least 1/);
  await rulesForm.getByLabel("Limit").last().fill("5");
  await expect(rulesForm.getByText("Limit must be at least 1")).toHaveCount(0);
  // A token bucket's window is its refill period.
  await rulesForm.getByLabel("Algorithm").last().selectOption("token_bucket");
  await expect(rulesForm.getByLabel("Refill period")).toBeVisible();
  await expect(rulesForm.getByLabel("Refill period")).toHaveAccessibleDescription(
    /The time in which Limit units refill/,
  );
  await attachScreenshot(page, testInfo, "rule form checked as typed, Refill period");

  // Key expiry typed as "1 Jan 2099, 12:00"; a US date is refused on blur, in words.
  const key = await api.createKey(tenant.id, uniqueName("expiring"));
  await page.goto(`/keys/${key.id}`);
  const expiry = page.getByRole("form", { name: "Key expiry" });
  const field = expiry.getByLabel("Expires at (your local time)");
  await expect(field).toHaveAttribute("placeholder", "27 Nov 2026, 14:30");
  await field.fill("01/01/2099");
  await field.blur();
  await expect(field).toHaveAccessibleDescription(/Write a date and time such as 27 Nov 2026, 14:30\./);
  await field.fill("1 Jan 2099, 12:00");
  await expiry.getByRole("button", { name: "Save expiry" }).click();
  await expect(page.getByTestId("key-expires")).toHaveText("1 Jan 2099, 12:00");
  await expect(field).toHaveValue("1 Jan 2099, 12:00");
  await attachScreenshot(page, testInfo, "key expiry typed as 1 Jan 2099, 12:00");
});
